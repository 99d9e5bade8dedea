// How a cache entry's monthly points are stored: two flat arrays (month indexes, values)
// instead of one object per month. Storage copies every value it is given (IndexedDB's
// structured clone, the memory store's structuredClone): flat number arrays copy as a block,
// where a few hundred small objects per series made the copy the largest CPU cost of
// writing the cache and kept a second, larger object graph of every series in memory.
import * as v from "valibot";
import type { MonthlyPoint } from "./model";
import { monthIndex, monthOfIndex } from "./months";

export interface StoredPoints {
  /** Months since year 0 (months.ts monthIndex), oldest first. */
  months: number[];
  values: number[];
}

export const StoredPointsSchema = v.pipe(
  v.object({
    months: v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
    values: v.array(v.number()),
  }),
  v.check((points) => points.months.length === points.values.length, "months and values differ in length"),
);

export function packPoints(points: readonly MonthlyPoint[]): StoredPoints {
  const months = new Array<number>(points.length);
  const values = new Array<number>(points.length);
  for (let index = 0; index < points.length; index += 1) {
    const point = points[index] as MonthlyPoint;
    months[index] = monthIndex(point.month);
    values[index] = point.value;
  }
  return { months, values };
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
