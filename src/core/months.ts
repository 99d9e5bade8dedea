// Month arithmetic on "YYYY-MM" strings (the normalised form of the service's dates).
import type { Month } from "./model";

const MONTH_PATTERN = /^(\d{4})-(\d{2})/;

const ZERO = 48;

function digit(text: string, index: number): number {
  const value = text.charCodeAt(index) - ZERO;
  return value >= 0 && value <= 9 ? value : -1;
}

/** Months since year 0 ("2024-01" -> 24288); throws on text that is not a month. */
export function monthIndex(month: string): number {
  // Sorting and merging series call this per point comparison: read the digits directly
  // (no regular expression, no allocation) when the text has the YYYY-MM shape.
  const y1 = digit(month, 0);
  const y2 = digit(month, 1);
  const y3 = digit(month, 2);
  const y4 = digit(month, 3);
  const m1 = digit(month, 5);
  const m2 = digit(month, 6);
  if (month.charCodeAt(4) === 45 && Math.min(y1, y2, y3, y4, m1, m2) >= 0) {
    return (y1 * 1000 + y2 * 100 + y3 * 10 + y4) * 12 + m1 * 10 + m2 - 1;
  }
  const match = MONTH_PATTERN.exec(month);
  if (!match) throw new RangeError(`'${month}' is not a month (expected YYYY-MM)`);
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

/**
 * The number `count` ASCII digits at `start` spell, or -1 where one is not a digit: dates
 * read per point or per row by their character codes, without a regular expression's match.
 */
export function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const digit = text.charCodeAt(index) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * One string per month for the whole process: thousands of series share a few hundred
 * months. Every point of every answer asks for its month's string, so the months of
 * 1800-2299 sit in an array (an index, where a map lookup hashed the number each time);
 * others, should any occur, in a map.
 */
const DENSE_FIRST = 1800 * 12;
const DENSE_COUNT = 500 * 12;
const denseTexts = new Array<Month | undefined>(DENSE_COUNT).fill(undefined);
const otherTexts = new Map<number, Month>();

function spellMonth(index: number): Month {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}

/** The inverse of monthIndex (24288 -> "2024-01"), one shared string per month. */
export function monthOfIndex(index: number): Month {
  const slot = index - DENSE_FIRST;
  if (slot >= 0 && slot < DENSE_COUNT && Number.isInteger(slot)) {
    return (denseTexts[slot] ??= spellMonth(index));
  }
  let text = otherTexts.get(index);
  if (text === undefined) {
    text = spellMonth(index);
    otherTexts.set(index, text);
  }
  return text;
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
