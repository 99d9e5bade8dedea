// Failed password checks per client, whatever the names tried. The count per client and name
// (auth-routes.ts) stops one name being guessed at speed; alone, it lets one client try a
// password on every member's name, as many times a minute as there are members. This count
// bounds that spray. A check is counted before it is made, in one statement (so attempts sent at
// once cannot all pass the limit), and taken back when the password was right: members who
// sign in from one office address never use it up. While a client is over, even a right
// password is refused (a spray's one right guess must not get through). Shared by every
// instance on the database, like the other count (store/sql-attempt-counts.ts).
//
// It needs the client's own address (client-address.ts): behind a front end the gateway is not
// told to believe (--trust-proxy), every member would share the front end's count and anyone's
// failures would hold them all, so gateway-app.ts applies it only where addresses are the
// clients' own.
import type { AttemptCounts } from "../store/gateway-store";

/** The window a client's failures are counted in (the gateway's default and --failed-sign-ins). */
export const FAILED_SIGN_IN_WINDOW_MS = 10 * 60_000;

export interface FailedSignInSettings {
  /** Failures a client may have in a window; its checks after that are refused until it ends. */
  max: number;
  windowMs: number;
}

/** The count's key: the per-name count's keys start with the client, so none is this one. */
export function failedSignInsKey(client: string): string {
  return `failed password checks from ${client}`;
}

/**
 * Counts a password check `client` is about to have made. Null: make it. Else the whole
 * seconds until the client's window ends: the client is over its failures, and the check is
 * not made.
 */
export async function countCheck(
  counts: AttemptCounts,
  client: string,
  settings: FailedSignInSettings,
  at: number,
): Promise<number | null> {
  const { attempts, windowEnds } = await counts.count(
    failedSignInsKey(client),
    settings.windowMs,
    new Date(at),
  );
  if (attempts <= settings.max) return null;
  return Math.max(1, Math.ceil((windowEnds.getTime() - at) / 1000));
}

/** The check counted by countCheck found the right password: it was no failure. */
export async function checkPassed(counts: AttemptCounts, client: string, at: number): Promise<void> {
  await counts.uncount(failedSignInsKey(client), new Date(at));
}
