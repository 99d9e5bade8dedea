// The points of a Series Values / History record, read without the schema when every one
// is valid (nearly always), straight into the columns the cache holds (point-columns.ts):
// validating each point through valibot makes an output object, a dataset and an issue list
// per point, and even a plain object per point would be most of what reading a large answer
// allocates. A list with any point the fast reader refuses goes through the schema
// (schemas.ts), so what is wrong is worded by the schema, exactly.
import type { Month } from "../model";
import { PointColumns } from "../point-columns";
import { toFiniteNumber, toMonthIndex } from "./normalise";

/** A point as the schema gives it: the month of its date, and its value. */
export interface DatedPoint {
  date: Month;
  value: number;
}

/**
 * The list's points, oldest first with one per month (the last seen wins), when it is an
 * array of {date, value} objects whose every date reads as a month and every value as a
 * finite number (what the schema accepts); else undefined.
 */
export function readPointList(list: unknown): PointColumns | undefined {
  if (!Array.isArray(list)) return undefined;
  const months = new Int32Array(list.length);
  const values = new Float64Array(list.length);
  for (let index = 0; index < list.length; index += 1) {
    const entry: unknown = list[index];
    if (typeof entry !== "object" || entry === null) return undefined;
    const date: unknown = (entry as { date?: unknown }).date;
    const month = (typeof date === "string" ? MONTH_OF_DATE.get(date) : undefined) ?? monthOfDate(date);
    // A number as JSON gives it is checked here, without a call (in a new process, most of a
    // list is read before V8 optimises this loop); anything else goes through toFiniteNumber.
    const given: unknown = (entry as { value?: unknown }).value;
    const value = typeof given === "number" && Number.isFinite(given) ? given : toFiniteNumber(given);
    if (month === null || value === null) return undefined;
    months[index] = month;
    values[index] = value;
  }
  return PointColumns.fromAnyOrder(months, values);
}

/**
 * Month indexes of the date texts read lately. A service's answers repeat a few hundred dates
 * (one a month), and looking a text up is a single step where parsing it again is a dozen per
 * point: a whole answer is read mostly before V8 optimises this code, in a new process at every
 * start (42,000 points: 27 against 40 ms, measured).
 */
const MONTH_OF_DATE = new Map<string, number>();
/** Centuries of months; past this many distinct dates the memo starts again, so it stays small. */
const MONTH_OF_DATE_LIMIT = 4096;

function monthOfDate(date: unknown): number | null {
  const month = toMonthIndex(date);
  if (month !== null && typeof date === "string") {
    if (MONTH_OF_DATE.size >= MONTH_OF_DATE_LIMIT) MONTH_OF_DATE.clear();
    MONTH_OF_DATE.set(date, month);
  }
  return month;
}
