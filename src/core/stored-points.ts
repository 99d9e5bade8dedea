// How a cache entry's monthly points are stored: the month indexes and the values as two
// JSON texts of numbers (format 3). Storage copies every value it is given (IndexedDB's
// structured clone, the memory store's structuredClone): a text copies as one block and is
// held as one string, where an array of numbers comes back from the copy as one boxed
// number per value (24 bytes a value, the largest part of a large workbook's stored
// cache) and a few hundred small objects per series were slower still. Format 2 stored the
// two flat arrays themselves; such entries still load.
import * as v from "valibot";
import type { MonthlyPoint } from "./model";
import { monthIndex, monthOfIndex } from "./months";

/** The points as flat arrays (format 2's stored form, and what format 3's texts hold). */
export interface StoredPoints {
  /** Months since year 0 (months.ts monthIndex), oldest first. */
  months: number[];
  values: number[];
}

/** Format 3: StoredPoints' two arrays as JSON texts. */
export interface StoredPointTexts {
  months: string;
  values: string;
}

export const StoredPointsSchema = v.pipe(
  v.object({
    months: v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
    values: v.array(v.number()),
  }),
  v.check((points) => points.months.length === points.values.length, "months and values differ in length"),
);

export const StoredPointTextsSchema = v.object({ months: v.string(), values: v.string() });

export function packPoints(points: readonly MonthlyPoint[]): StoredPointTexts {
  const months = new Array<number>(points.length);
  const values = new Array<number>(points.length);
  for (let index = 0; index < points.length; index += 1) {
    const point = points[index] as MonthlyPoint;
    months[index] = monthIndex(point.month);
    values[index] = point.value;
  }
  return { months: JSON.stringify(months), values: JSON.stringify(values) };
}

/** The arrays of format 3's texts; undefined when they are not valid stored points. */
export function readPointTexts(texts: StoredPointTexts): StoredPoints | undefined {
  try {
    const points: unknown = { months: JSON.parse(texts.months), values: JSON.parse(texts.values) };
    return v.is(StoredPointsSchema, points) ? points : undefined;
  } catch {
    return undefined;
  }
}

export function unpackPoints(stored: StoredPoints): MonthlyPoint[] {
  const points = new Array<MonthlyPoint>(stored.months.length);
  for (let index = 0; index < stored.months.length; index += 1) {
    points[index] = {
      month: monthOfIndex(stored.months[index] as number),
      value: stored.values[index] as number,
    };
  }
  return points;
}
