// Field-level normalisers for the service's loosely typed answers (docs/service.md §6,
// "Responses"): string booleans, "not applicable" markers, comma lists, dates. They
// never throw: an unreadable optional field becomes null (unknown), not a failure.
import type { Month } from "../model";
import { monthOfIndex } from "../months";

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
 * One string per month: every point of every series names its month, and a workbook's
 * cache holds millions of points (about 24 bytes saved per point). The pool holds only
 * valid months, and is emptied should it ever grow past the bound.
 */
const MONTH_POOL_LIMIT = 10_000;
const monthPool = new Map<string, Month>();

/** Two decimal digits at `index` as a number, or -1. */
function twoDigits(text: string, index: number): number {
  const tens = text.charCodeAt(index) - 48;
  const ones = text.charCodeAt(index + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/**
 * The month of a plain "YYYY-MM-DD" or "YYYY-MM" text, read digit by digit; undefined for
 * any other form (the general reading below decides those). Every point of every answer
 * names its date this way: no regular expression, match array or new string per point.
 */
function plainDateMonth(text: string): Month | undefined {
  const length = text.length;
  if ((length !== 7 && length !== 10) || text.charCodeAt(4) !== 45) return undefined;
  const century = twoDigits(text, 0);
  const years = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  if (century < 0 || years < 0 || month < 1 || month > 12) return undefined;
  if (length === 10) {
    const day = twoDigits(text, 8);
    if (text.charCodeAt(7) !== 45 || day < 1 || day > 31) return undefined;
  }
  return monthOfIndex((century * 100 + years) * 12 + month - 1);
}

/** "YYYY-MM-DD" (or "YYYY-MM") -> Month "YYYY-MM"; anything else null. */
export function toMonth(value: unknown): Month | null {
  if (typeof value === "string") {
    const plain = plainDateMonth(value);
    if (plain !== undefined) return plain;
  }
  const parts = dateParts(value);
  if (!parts) return null;
  const month = `${parts.year}-${parts.month}`;
  const pooled = monthPool.get(month);
  if (pooled !== undefined) return pooled;
  if (monthPool.size >= MONTH_POOL_LIMIT) monthPool.clear();
  monthPool.set(month, month);
  return month;
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
