// The monthly release's business day that members' budgets count by (allowance-period.ts): the
// --release-day flag's values, and the day every instance on one database agrees on.
import type { ReleaseDaySetting } from "../store/gateway-store";

/**
 * The add-in's default (its settings' releaseBusinessDay): a gateway and its members' add-ins
 * agree unless either is told otherwise. Not imported from the engine's settings, which bring
 * the engine's modules into the gateway's build.
 */
export const DEFAULT_RELEASE_BUSINESS_DAY = 3;
export const MAX_RELEASE_BUSINESS_DAY = 10;

/**
 * A --release-day value: a whole number from 1 to MAX_RELEASE_BUSINESS_DAY (the add-in's
 * setting allows the same), DEFAULT_RELEASE_BUSINESS_DAY when not given; null when invalid.
 */
export function releaseBusinessDayOf(text: string | undefined): number | null {
  if (text === undefined) return DEFAULT_RELEASE_BUSINESS_DAY;
  if (!/^\d{1,2}$/.test(text)) return null;
  const day = Number(text);
  return day >= 1 && day <= MAX_RELEASE_BUSINESS_DAY ? day : null;
}

export const RELEASE_DAY_EXPECTED = `--release-day expects the release's business day of the month, a whole number from 1 to ${MAX_RELEASE_BUSINESS_DAY}`;

/**
 * The release day to count by: the one given (kept in the database for the other instances and
 * the usage report), else the one kept, else the default. `replaced`: what was kept before, in
 * words for the start's note, when the given day differs from it (instances started earlier
 * still count by it until restarted); a kept value that is not a day is named as such, so the
 * note says what the flag mended.
 */
export async function agreedReleaseDay(
  setting: ReleaseDaySetting,
  given: number | undefined,
): Promise<{ day: number; replaced: string | null }> {
  if (given !== undefined && releaseBusinessDayOf(String(given)) !== given)
    throw new RangeError(`${RELEASE_DAY_EXPECTED}, got ${given}`);
  if (given === undefined)
    return { day: (await setting.get()) ?? DEFAULT_RELEASE_BUSINESS_DAY, replaced: null };
  const before = await setting.replace(given);
  if (before === null) return { day: given, replaced: null };
  const kept = releaseBusinessDayOf(before);
  if (kept === null) return { day: given, replaced: `'${before.slice(0, 20)}', which was not a day` };
  return { day: given, replaced: kept !== given ? String(kept) : null };
}
