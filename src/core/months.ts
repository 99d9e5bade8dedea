// Month arithmetic on "YYYY-MM" strings (the normalised form of the service's dates).
import type { Month } from "./model";

const MONTH_PATTERN = /^(\d{4})-(\d{2})/;

/** Months since year 0 ("2024-01" -> 24288); throws on text that is not a month. */
export function monthIndex(month: string): number {
  const match = MONTH_PATTERN.exec(month);
  if (!match) throw new RangeError(`'${month}' is not a month (expected YYYY-MM)`);
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

/** How many months `to` lies after `from` (negative when before). */
export function monthsBetween(from: Month, to: Month): number {
  return monthIndex(to) - monthIndex(from);
}

/** The later of two months, null-tolerant. */
export function laterMonth(a: Month | null, b: Month | null): Month | null {
  if (a === null) return b;
  if (b === null) return a;
  return monthIndex(a) >= monthIndex(b) ? a : b;
}

/** "YYYY-MM-DD" or "YYYY-MM" -> "YYYY-MM". */
export function toMonth(date: string): Month {
  const match = MONTH_PATTERN.exec(date);
  if (!match) throw new RangeError(`'${date}' is not a date (expected YYYY-MM-DD)`);
  return `${match[1]}-${match[2]}`;
}
