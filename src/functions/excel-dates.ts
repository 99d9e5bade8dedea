// Month <-> Excel date serial conversions. Everything is computed in UTC arithmetic so a
// serial means the same month in every time zone: never local-time Date methods here.
import type { Month } from "../core/model";
import { digitsAt } from "../core/months";

const MS_PER_DAY = 86_400_000;
/** Serial of 1970-01-01 in Excel's 1900 date system (which counts a fictitious 1900-02-29). */
const UNIX_EPOCH_SERIAL = 25_569;
/** Serial 60 is Excel's fictitious 1900-02-29; serials below it are one day "early". */
const FICTITIOUS_LEAP_DAY = 60;
/** 9999-12-31, the last date Excel can show. */
export const MAX_DATE_SERIAL = 2_958_465;

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The Excel serial of a calendar date (1900 date system). */
export function calendarToSerial({ year, month, day }: CalendarDate): number {
  const serial = Date.UTC(year, month - 1, day) / MS_PER_DAY + UNIX_EPOCH_SERIAL;
  return serial <= FICTITIOUS_LEAP_DAY ? serial - 1 : serial;
}

/** The calendar date of an Excel serial; the time-of-day fraction is ignored. */
export function serialToCalendar(serial: number): CalendarDate {
  const whole = Math.floor(serial);
  if (whole === FICTITIOUS_LEAP_DAY) return { year: 1900, month: 2, day: 29 };
  const days = whole < FICTITIOUS_LEAP_DAY ? whole + 1 : whole;
  const date = new Date((days - UNIX_EPOCH_SERIAL) * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function formatMonth(year: number, month: number): Month {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}

export function formatCalendar({ year, month, day }: CalendarDate): string {
  return `${formatMonth(year, month)}-${String(day).padStart(2, "0")}`;
}

/** Serial of the first day of a "YYYY-MM" month. */
export function monthToSerial(month: Month): number {
  // Digits read by their codes, not a regular expression: every row of every PCD.VALUES
  // table goes through here, and a match allocated an array and its substrings each time.
  const year = digitsAt(month, 0, 4);
  const monthNumber = digitsAt(month, 5, 2);
  if (month.length !== 7 || month.charCodeAt(4) !== 45 || year < 0 || monthNumber < 0) {
    throw new RangeError(`Not a month (YYYY-MM): ${month}`);
  }
  return calendarToSerial({ year, month: monthNumber, day: 1 });
}

/** The month ("YYYY-MM") an Excel serial falls in. */
export function serialToMonth(serial: number): Month {
  const { year, month } = serialToCalendar(serial);
  return formatMonth(year, month);
}

/** Serial of a "YYYY-MM-DD" date text, undefined when the text is not such a date. */
export function isoDateToSerial(text: string): number | undefined {
  const parsed = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!parsed) return undefined;
  const date = { year: Number(parsed[1]), month: Number(parsed[2]), day: Number(parsed[3]) };
  return isValidCalendarDate(date) ? calendarToSerial(date) : undefined;
}

export function isValidCalendarDate({ year, month, day }: CalendarDate): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 9999) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}
