// Password checks one client address may ask for in a window, whatever the names tried. The
// count per address and name (auth-routes.ts) stops one name being guessed at speed; alone, it
// lets one address try a password on every member's name, as many times as there are members.
// This count bounds that spray. It is shared by every instance on the database, as the other is
// (store/sql-attempt-counts.ts), and counts only attempts that cost a password check: a working
// API key never reaches one, and the cheap attempts already share one count per address.
import type { AttemptCounts } from "../store/gateway-store";

export interface AddressAttemptSettings {
  max: number;
  windowMs: number;
}

/** An attempt over the address's limit: when its window ends, in whole seconds from now. */
export interface AddressOverLimit {
  retryAfterSeconds: number;
}

/** The count's key: no key of the per-name count starts this way (those start with the address). */
export function addressKey(ip: string): string {
  return `password checks from ${ip}`;
}

/**
 * Counts one password check from `ip` at `at`; null while the address is within its limit.
 * Throws when the database cannot count (the sign-in is then refused: an uncounted check is
 * what the limit exists to prevent).
 */
export async function countAddressAttempt(
  counts: AttemptCounts,
  ip: string,
  settings: AddressAttemptSettings,
  at: number,
): Promise<AddressOverLimit | null> {
  const { attempts, windowEnds } = await counts.count(addressKey(ip), settings.windowMs, new Date(at));
  if (attempts <= settings.max) return null;
  return { retryAfterSeconds: Math.max(1, Math.ceil((windowEnds.getTime() - at) / 1000)) };
}
