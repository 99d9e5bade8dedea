// Which months a cache entry holds completely, as the service had them. An entry is built
// from answers that each cover a known span: a Series Values answer the 13-month window
// of its release, a History answer every month before that window (docs/service.md). A
// cell is served only from covered months, so a History answer whose Values call failed
// can never pass its last month off as the latest one.
import type { Month } from "./model";
import type { PointColumns } from "./point-columns";
import { monthIndex } from "./months";

export interface CoveredRange {
  /** First covered month; null = the series' first month (a History answer). */
  from: Month | null;
  /** Last covered month. */
  to: Month;
}

function startOf(range: CoveredRange): number {
  return range.from === null ? -Infinity : monthIndex(range.from);
}

function monthAt(index: number): Month {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}

/** Adds a range, merging ranges that overlap or touch; the result is sorted and disjoint. */
export function addRange(ranges: readonly CoveredRange[], added: CoveredRange): CoveredRange[] {
  const all = [...ranges, added].sort((a, b) => startOf(a) - startOf(b));
  const merged: CoveredRange[] = [];
  for (const range of all) {
    const last = merged[merged.length - 1];
    if (last && startOf(range) <= monthIndex(last.to) + 1) {
      if (monthIndex(range.to) > monthIndex(last.to)) last.to = range.to;
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

/** True when one range holds every month from `from` (-Infinity = the first) to `to`. */
export function coversSpan(ranges: readonly CoveredRange[], from: number, to: number): boolean {
  if (to < from) return true;
  // A loop, not ranges.some(...): withinCoverage asks this for every point of every answer
  // stored, and a callback per call would be 5 % of all a cold recalculation allocates.
  for (const range of ranges) if (startOf(range) <= from && monthIndex(range.to) >= to) return true;
  return false;
}

/** The last covered month, or null when nothing is covered. */
export function coveredEnd(ranges: readonly CoveredRange[]): number | null {
  const last = ranges[ranges.length - 1];
  return last ? monthIndex(last.to) : null;
}

/** The first covered month (-Infinity when it is the series' first), or null. */
export function coveredStart(ranges: readonly CoveredRange[]): number | null {
  const first = ranges[0];
  return first ? startOf(first) : null;
}

/** The range an answer covers: History from the first month, Values from the window start. */
export function rangeOf(from: number, to: number): CoveredRange {
  return { from: from === -Infinity ? null : monthAt(from), to: monthAt(to) };
}

/**
 * Keeps the points inside the covered ranges (months outside them are no longer vouched
 * for). Usually every point is covered: the array given is then the one returned, not a
 * copy (the cache keeps it, and a filtered copy kept room for up to half as many again).
 */
export function withinCoverage(points: PointColumns, ranges: readonly CoveredRange[]): PointColumns {
  // One range from the first point to the last covers them all: no test per point (every
  // answer stored comes here; testing each point took about 9 ms of a 200-formula runner's
  // pass via the gateway, in its new process).
  if (points.length === 0 || coversSpan(ranges, points.indexAt(0), points.indexAt(points.length - 1)))
    return points;
  // The ranges' months read once, not per point: every point of every answer stored comes here.
  const starts = ranges.map(startOf);
  const ends = ranges.map((range) => monthIndex(range.to));
  return points.filterMonths((month) => {
    for (let at = 0; at < starts.length; at += 1) {
      if ((starts[at] ?? Infinity) <= month && (ends[at] ?? -Infinity) >= month) return true;
    }
    return false;
  });
}
