// Field-level normalisers for the service's loosely typed answers (docs/service.md §6,
// "Responses"): string booleans, "not applicable" markers, comma lists, dates. They
// never throw: an unreadable optional field becomes null (unknown), not a failure.
import type { Month } from "../model";
import { digitsAt, monthOfIndex } from "../months";

/** Texts the service uses for "not applicable" (compared trimmed, case-insensitive). */
const NOT_APPLICABLE = new Set(["-", "n/a", "na", ""]);

export function isNotApplicable(text: string): boolean {
  return NOT_APPLICABLE.has(text.trim().toLowerCase());
}

/** Optional text: markers and non-texts become null; numbers are kept as their text. */
export function optionalText(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  return isNotApplicable(text) ? null : text;
}

/** Text that is shown as-is (assessment, commodity...): missing becomes "", markers kept out. */
export function displayText(value: unknown): string {
  return optionalText(value) ?? "";
}

/** true/false or "True"/"False"/"true"/"false"; anything else is unknown (null), never false. */
export function toBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return null;
  const text = value.trim().toLowerCase();
  if (text === "true") return true;
  if (text === "false") return false;
  return null;
}

/** "a, b ,c" -> ["a","b","c"]; markers and empty items dropped; an array of texts is accepted too. */
export function toList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return items
    .map((item) => optionalText(item))
    .filter((item): item is string => item !== null && item !== "");
}

const DATE_PATTERN = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function dateParts(value: unknown): { year: string; month: string; day: string | undefined } | null {
  if (typeof value !== "string") return null;
  const match = DATE_PATTERN.exec(value.trim());
  if (!match) return null;
  const [, year, month, day] = match;
  if (year === undefined || month === undefined) return null;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return null;
  if (day !== undefined && (Number(day) < 1 || Number(day) > 31)) return null;
  return { year, month, day };
}

/**
 * "YYYY-MM-DD" (or "YYYY-MM", with an optional time) -> Month "YYYY-MM"; anything else null.
 * One string per month (months.ts monthOfIndex): every point of every series names its
 * month, and a workbook's cache holds millions of points. The plain date every point
 * carries is read by its character codes: a regular expression's match allocated an array
 * and its substrings per point, the largest single cost of reading an answer.
 */
export function toMonth(value: unknown): Month | null {
  const index = toMonthIndex(value);
  return index === null ? null : monthOfIndex(index);
}

/** toMonth's month as its index (months.ts monthIndex), null where toMonth gives null. */
export function toMonthIndex(value: unknown): number | null {
  if (typeof value === "string" && value.length === 10) {
    const index = plainDateMonthIndex(value);
    if (index !== undefined) return index;
  }
  const parts = dateParts(value);
  if (!parts) return null;
  return Number(parts.year) * 12 + Number(parts.month) - 1;
}

/** The month index of a valid "YYYY-MM-DD" (dateParts' checks), else undefined. */
function plainDateMonthIndex(text: string): number | undefined {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return year * 12 + month - 1;
}

/** "YYYY-MM-DD" kept as a date text (a time part is dropped); anything else null. */
export function toDateText(value: unknown): string | null {
  const parts = dateParts(value);
  return parts && parts.day !== undefined ? `${parts.year}-${parts.month}-${parts.day}` : null;
}

/** remark_1 "lag: <n>" -> n; null when absent or unreadable. */
export function toLag(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const match = /^\s*lag\s*:\s*(-?\d+)\s*$/i.exec(value);
  return match?.[1] !== undefined ? Number(match[1]) : null;
}

const NUMERIC_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A finite number, or a text holding one; anything else null. */
export function toFiniteNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && NUMERIC_TEXT.test(value.trim())) {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}
