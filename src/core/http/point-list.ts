// The points of a Series Values / History record, read without the schema when every one
// is valid (nearly always): validating each point through valibot made an output object,
// a dataset and an issue list per point, most of what reading a large answer allocated.
// A list with any point the fast reader refuses goes through the schema (schemas.ts),
// which words what is wrong exactly as before.
import type { Month } from "../model";
import { toFiniteNumber, toMonth } from "./normalise";

/** A point as the schema gives it: the month of its date, and its value. */
export interface DatedPoint {
  date: Month;
  value: number;
}

/**
 * The list's points when it is an array of {date, value} objects whose every date reads
 * as a month and every value as a finite number (what the schema accepts); else undefined.
 */
export function readPointList(list: unknown): DatedPoint[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const points = new Array<DatedPoint>(list.length);
  for (let index = 0; index < list.length; index += 1) {
    const entry: unknown = list[index];
    if (typeof entry !== "object" || entry === null) return undefined;
    const date = toMonth((entry as { date?: unknown }).date);
    const value = toFiniteNumber((entry as { value?: unknown }).value);
    if (date === null || value === null) return undefined;
    points[index] = { date, value };
  }
  return points;
}
