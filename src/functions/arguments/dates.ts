// Month arguments (start_date, end_date, date): an Excel date serial (any day, any time of
// day: the month counts) or text "YYYY-MM" / "YYYY-MM-DD". Empty text means omitted.
import type { Month } from "../../core/model";
import { optionKindOf } from "../../core/option-kind";
import { MAX_DATE_SERIAL, formatMonth, isValidCalendarDate, serialToMonth } from "../excel-dates";
import { argumentError, describeValue, isOmitted, shortened } from "./argument-error";

export type DateArgument = "start_date" | "end_date" | "date" | "from_date" | "to_date";

const DATE_TEXT = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?$/;

/**
 * Whole numbers read as a year, not a date serial: as serials they are days of 1905
 * (2025 is 1905-07-17), which nobody means, while =PCD.VALUE(code,2025) is a common slip.
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2100;

export interface DateSlot {
  /** Whether the function has currency and unit arguments a misplaced code belongs in (default true). */
  hasCurrencyAndUnit?: boolean;
}

/** null = omitted. */
export function parseMonthArgument(
  input: unknown,
  argument: DateArgument,
  slot: DateSlot = {},
): Month | null {
  if (isOmitted(input)) return null;
  if (typeof input === "number") {
    if (Number.isInteger(input) && input >= FIRST_YEAR && input <= LAST_YEAR)
      throw looksLikeAYear(argument, input);
    if (Number.isFinite(input) && input >= 1 && input < MAX_DATE_SERIAL + 1) return serialToMonth(input);
    throw notADate(argument, input);
  }
  if (typeof input !== "string") throw notADate(argument, input);
  const text = input.trim();
  if (/^\d{4}$/.test(text) && Number(text) >= FIRST_YEAR && Number(text) <= LAST_YEAR) {
    throw looksLikeAYear(argument, Number(text));
  }
  const kind = optionKindOf(text);
  if (kind !== null) throw looksLikeAnOption(argument, text, kind, slot.hasCurrencyAndUnit ?? true);
  const parsed = DATE_TEXT.exec(text);
  if (!parsed) throw notADate(argument, input);
  const year = Number(parsed[1]);
  const month = Number(parsed[2]);
  const day = parsed[3] === undefined ? 1 : Number(parsed[3]);
  if (!isValidCalendarDate({ year, month, day })) throw notADate(argument, input);
  return formatMonth(year, month);
}

/** Rejects a range whose start lies after its end. */
export function checkMonthRange(start: Month | null, end: Month | null): void {
  if (start !== null && end !== null && start > end) {
    throw argumentError(
      "start_date",
      `The start_date ${start} is after the end_date ${end}: give a start month on or before the end month.`,
    );
  }
}

const DATE_FORMS = ["date serial", "YYYY-MM", "YYYY-MM-DD"];

function looksLikeAYear(argument: DateArgument, year: number): Error {
  return argumentError(
    argument,
    `The ${argument} ${year} looks like a year: write "${year}-01" or DATE(${year},1,1) (a number here is a date serial, and ${year} is a day in 1905).`,
    DATE_FORMS,
  );
}

function looksLikeAnOption(
  argument: DateArgument,
  text: string,
  kind: "currency" | "unit",
  hasCurrencyAndUnit: boolean,
): Error {
  const where = hasCurrencyAndUnit ? `it goes in the ${kind} argument` : `this function takes no ${kind}`;
  return argumentError(
    argument,
    `The ${argument} "${shortened(text)}" looks like a ${kind}: ${where}. Give the ${argument} as a date, e.g. "2024-01" or DATE(2024,1,1).`,
    DATE_FORMS,
  );
}

function notADate(argument: DateArgument, input: unknown): Error {
  return argumentError(
    argument,
    `The ${argument} ${describeValue(input)} is not a date: use a date (e.g. DATE(2024,1,1)) or text "YYYY-MM" or "YYYY-MM-DD", e.g. "2024-01".`,
    DATE_FORMS,
  );
}
