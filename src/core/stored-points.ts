// How a cache entry's monthly points are stored (format 4): the months as a JSON text of
// runs of consecutive months ([first month index, count] pairs: a series without gaps is
// one pair) and the values as the Float64Array the cache holds in memory
// (point-columns.ts). Storage copies every value it is given (IndexedDB's structured
// clone, the memory store's structuredClone): a typed array copies as one block of 8 bytes
// a value, with nothing to encode on the way in or parse on the way out. Values as a JSON
// text (format 3) cost a tenth of a cold recalculation's CPU to make, and every such text is
// garbage the moment storage has copied it (30 MB of a 10,000-formula recalculation's peak
// memory). Entries stored in formats 3 and 2 (values as a JSON text; flat arrays of month
// indexes and values) still load.
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

/**
 * Format 4: the months as format 3's text of runs, the values as one Float64Array. A cache
 * file (src/headless/cache-file.ts) holds the values as a JSON list of numbers, which reads
 * the same.
 */
export interface StoredPointColumns {
  months: string;
  values: Float64Array | number[];
}

export const StoredPointsSchema = v.pipe(
  v.object({
    months: v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
    values: v.array(v.number()),
  }),
  v.check((points) => points.months.length === points.values.length, "months and values differ in length"),
);

export const StoredPointTextsSchema = v.object({ months: v.string(), values: v.string() });

/** The shape of format 4's points; the values are checked by readPointColumns. */
export const StoredPointColumnsSchema = v.object({
  months: v.string(),
  values: v.custom<Float64Array | number[]>(
    (input) => isFloat64Array(input) || Array.isArray(input),
    "values must be a Float64Array or a list of numbers",
  ),
});

/** The stored form of columns (format 4). */
export function packPoints(points: PointColumns): StoredPointColumns {
  return { months: JSON.stringify(points.monthRuns()), values: points.valuesColumn() };
}

/** The largest month index a column holds (an Int32Array's largest value). */
const MAX_MONTH_INDEX = 2 ** 31 - 1;

const RunsSchema = v.array(
  v.tuple([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.number(), v.integer(), v.minValue(1))]),
);

/** Format 4's points as columns; undefined when they are not valid stored points. */
export function readPointColumns(stored: StoredPointColumns): PointColumns | undefined {
  const runs = readRuns(stored.months);
  const values = stored.values;
  if (runs === undefined || !(isFloat64Array(values) || Array.isArray(values))) return undefined;
  const total = runs.reduce((sum, [, count]) => sum + count, 0);
  if (total !== values.length) return undefined;
  // Month indexes are held as 32-bit integers: a run beyond them is damage, not a month.
  if (runs.some(([first, count]) => first + count > MAX_MONTH_INDEX)) return undefined;
  // A value storage gave back is checked like an answer's: a finite number, or the entry is not read.
  for (let index = 0; index < values.length; index += 1) {
    const value: unknown = values[index];
    if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  }
  const months = new Int32Array(total);
  let filled = 0;
  for (const [first, count] of runs)
    for (let step = 0; step < count; step += 1) months[filled++] = first + step;
  return unpackPoints({ months, values });
}

/** The arrays of format 3's texts; undefined when they are not valid stored points. */
export function readPointTexts(texts: StoredPointTexts): StoredPoints | undefined {
  try {
    const runs = readRuns(texts.months);
    const values: unknown = JSON.parse(texts.values);
    if (runs === undefined || !Array.isArray(values)) return undefined;
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
export function unpackPoints(stored: {
  months: ArrayLike<number>;
  values: ArrayLike<number>;
}): PointColumns | undefined {
  try {
    return PointColumns.fromIndexes(stored.months, stored.values);
  } catch {
    return undefined;
  }
}

/** The [first, count] runs of a months text; undefined when it is not such a list. */
function readRuns(text: string): Array<[number, number]> | undefined {
  try {
    const runs: unknown = JSON.parse(text);
    return v.is(RunsSchema, runs) ? runs : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True for a Float64Array of any realm: storage may hand back one made by another global
 * (a structured clone in a test environment), which instanceof would not recognise.
 */
function isFloat64Array(value: unknown): value is Float64Array {
  return Object.prototype.toString.call(value) === "[object Float64Array]";
}
