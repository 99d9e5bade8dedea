// Month arguments (start_date, end_date, date): an Excel date serial (any day, any time of
// day: the month counts) or text "YYYY-MM" / "YYYY-MM-DD". Empty text means omitted.
import type { Month } from "../../core/model";
import { MAX_DATE_SERIAL, formatMonth, isValidCalendarDate, serialToMonth } from "../excel-dates";
import { argumentError, describeValue, isOmitted } from "./argument-error";

export type DateArgument = "start_date" | "end_date" | "date" | "from_date" | "to_date";

const DATE_TEXT = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?$/;

/** null = omitted. */
export function parseMonthArgument(input: unknown, argument: DateArgument): Month | null {
  if (isOmitted(input)) return null;
  if (typeof input === "number") {
    if (Number.isFinite(input) && input >= 1 && input < MAX_DATE_SERIAL + 1) return serialToMonth(input);
    throw notADate(argument, input);
  }
  if (typeof input !== "string") throw notADate(argument, input);
  const parsed = DATE_TEXT.exec(input.trim());
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

function notADate(argument: DateArgument, input: unknown): Error {
  return argumentError(
    argument,
    `The ${argument} ${describeValue(input)} is not a date: use a date (e.g. DATE(2024,1,1)) or text "YYYY-MM" or "YYYY-MM-DD", e.g. "2024-01".`,
    ["date serial", "YYYY-MM", "YYYY-MM-DD"],
  );
}
