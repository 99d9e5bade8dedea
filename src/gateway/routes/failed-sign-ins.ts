// Failed password checks per client address, whatever the names tried. The count per address
// and name (auth-routes.ts) stops one name being guessed at speed; alone, it lets one address
// try a password on every member's name, as many times a minute as there are members. This
// count bounds that spray. Only failures count, so members who sign in from one address (an
// office behind one router) never use it up by signing in; while an address is over, even a
// right password is refused (a spray's one right guess must not get through). It is shared by
// every instance on the database, like the other (store/sql-attempt-counts.ts).
//
// Behind a front end, the client's address is the front end's unless the gateway is told to
// believe it (--trust-proxy): then every member shares one count, and anyone's failures can
// hold them all at 429, so docs/gateway.md has the front end's address given.
import type { AttemptCounts } from "../store/gateway-store";

export interface FailedSignInSettings {
  /** Failures an address may have in a window; the next attempt is refused until it ends. */
  max: number;
  windowMs: number;
}

/** The count's key: the per-name count's keys start with the address, so none is this one. */
export function failedSignInsKey(ip: string): string {
  return `failed password checks from ${ip}`;
}

/** Whole seconds until the address's window ends, when it is over its failures; null when not. */
export async function addressHeldFor(
  counts: AttemptCounts,
  ip: string,
  settings: FailedSignInSettings,
  at: number,
): Promise<number | null> {
  const current = await counts.current(failedSignInsKey(ip), new Date(at));
  if (current === null || current.attempts < settings.max) return null;
  return Math.max(1, Math.ceil((current.windowEnds.getTime() - at) / 1000));
}

/** A password check from `ip` failed. */
export async function countFailedSignIn(
  counts: AttemptCounts,
  ip: string,
  settings: FailedSignInSettings,
  at: number,
): Promise<void> {
  await counts.count(failedSignInsKey(ip), settings.windowMs, new Date(at));
}
