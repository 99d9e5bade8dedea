// How a cache entry's monthly points are stored (format 3): the months as a JSON text of
// runs of consecutive months ([first month index, count] pairs: a series without gaps is
// one pair) and the values as a JSON text of numbers. Storage copies every value it is
// given (IndexedDB's structured clone, the memory store's structuredClone): a text copies
// as one block and is held as one string, where an array of numbers comes back from the
// copy as one boxed number per value (24 bytes a value, the largest part of a large
// workbook's stored cache) and a few hundred small objects per series were slower still.
// Format 2 stored the flat arrays of month indexes and values themselves; such entries
// still load.
import * as v from "valibot";
import { PointColumns } from "./point-columns";

/** The points as flat arrays (format 2's stored form, and what format 3's texts hold). */
export interface StoredPoints {
  /** Months since year 0 (months.ts monthIndex), oldest first. */
  months: number[];
  values: number[];
}

/** Format 3: the months as a JSON text of [first, count] runs, the values as a JSON text. */
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

export function packPoints(points: PointColumns): StoredPointTexts {
  return { months: JSON.stringify(points.monthRuns()), values: points.valuesJson() };
}

const RunsSchema = v.array(
  v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.number(), v.integer(), v.minValue(1))]),
);

/** The arrays of format 3's texts; undefined when they are not valid stored points. */
export function readPointTexts(texts: StoredPointTexts): StoredPoints | undefined {
  try {
    const runs: unknown = JSON.parse(texts.months);
    const values: unknown = JSON.parse(texts.values);
    if (!v.is(RunsSchema, runs) || !Array.isArray(values)) return undefined;
    // A run longer than the values cannot be right: checked before it is spelled out.
    const total = runs.reduce((sum, [, count]) => sum + count, 0);
    if (total !== values.length) return undefined;
    const months: number[] = [];
    for (const [first, count] of runs) for (let step = 0; step < count; step += 1) months.push(first + step);
    const points: unknown = { months, values };
    return v.is(StoredPointsSchema, points) ? points : undefined;
  } catch {
    return undefined;
  }
}

/** Stored arrays as columns; undefined when their months are not strictly ascending. */
export function unpackPoints(stored: StoredPoints): PointColumns | undefined {
  try {
    return PointColumns.fromIndexes(stored.months, stored.values);
  } catch {
    return undefined;
  }
}
