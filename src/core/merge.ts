// How a Series Values or History answer is merged into what is cached. The service
// only ever sends windows (13 months, or a history that may end before that window),
// so the cache accumulates months and each answer updates the months it covers.
import type { Month, MonthlyPoint, SeriesValues } from "./model";
import { monthIndex } from "./months";

export interface SeriesPoints {
  /** Oldest first, one point per month. */
  finals: MonthlyPoint[];
  forecasts: MonthlyPoint[];
}

export type MergeSource = "values" | "history";

function byMonth(points: Iterable<MonthlyPoint>): MonthlyPoint[] {
  return [...points].sort((a, b) => monthIndex(a.month) - monthIndex(b.month));
}

/** Whether the points are oldest first with one point per month (what this module returns). */
function isOrdered(points: readonly MonthlyPoint[]): boolean {
  let previous = -Infinity;
  for (const point of points) {
    const index = monthIndex(point.month);
    if (!(index > previous)) return false;
    previous = index;
  }
  return true;
}

export function lastMonthOf(points: readonly MonthlyPoint[]): Month | null {
  let last: MonthlyPoint | undefined;
  let lastIndex = -Infinity;
  for (const point of points) {
    const index = monthIndex(point.month);
    if (last === undefined || index > lastIndex) {
      last = point;
      lastIndex = index;
    }
  }
  return last?.month ?? null;
}

/**
 * Finals: months of the answer win over cached months. A History answer is a revision
 * of everything it covers, so cached finals inside its range are dropped even where the
 * answer has no point (a month the service removed). Forecasts: the answer's replace
 * the cached ones, except months that now have a final; a History answer without
 * forecasts (the real service's never has them) leaves the cached forecasts alone.
 */
export function mergeAnswer(
  cached: SeriesPoints | undefined,
  answer: SeriesValues,
  source: MergeSource,
): SeriesPoints {
  const keepCached = source === "history" && answer.forecasts.length === 0;
  const forecastSource = keepCached ? (cached?.forecasts ?? []) : answer.forecasts;
  const cachedFinals = cached?.finals ?? [];
  // Answers (normalised) and cached series are oldest first with one point per month:
  // merged in one pass, as every answer of a cold recalculation is (hundreds of points per
  // series, thousands of series). Anything else takes the general path.
  if (isOrdered(cachedFinals) && isOrdered(answer.finals) && isOrdered(forecastSource)) {
    const finals = mergeOrderedFinals(cachedFinals, answer.finals, source);
    return { finals, forecasts: forecastsAfter(finals, forecastSource) };
  }
  const finals = new Map<Month, MonthlyPoint>();
  const answerMonths = answer.finals.map((point) => monthIndex(point.month));
  const first = Math.min(...answerMonths);
  const last = Math.max(...answerMonths);
  for (const point of cachedFinals) {
    const index = monthIndex(point.month);
    if (source === "history" && answerMonths.length > 0 && index >= first && index <= last) continue;
    finals.set(point.month, point);
  }
  for (const point of answer.finals) finals.set(point.month, { month: point.month, value: point.value });
  const forecasts = forecastSource
    .filter((point) => !finals.has(point.month))
    .map((point) => ({ month: point.month, value: point.value }));
  return { finals: byMonth(finals.values()), forecasts: byMonth(forecasts) };
}

/** mergeAnswer's finals for ordered lists: a merge of two sorted lists, the answer winning. */
function mergeOrderedFinals(
  cached: readonly MonthlyPoint[],
  answer: readonly MonthlyPoint[],
  source: MergeSource,
): MonthlyPoint[] {
  const revises = source === "history" && answer.length > 0;
  const first = answer.length > 0 ? monthIndex((answer[0] as MonthlyPoint).month) : 0;
  const last = answer.length > 0 ? monthIndex((answer[answer.length - 1] as MonthlyPoint).month) : 0;
  const merged: MonthlyPoint[] = [];
  let next = 0;
  for (const point of answer) {
    const index = monthIndex(point.month);
    while (next < cached.length) {
      const held = cached[next] as MonthlyPoint;
      const heldIndex = monthIndex(held.month);
      if (heldIndex > index) break;
      next += 1;
      // The answer's month wins; History drops what it no longer has within its range.
      if (heldIndex < index && !(revises && heldIndex >= first && heldIndex <= last)) merged.push(held);
    }
    // Points are never changed once made (normalisePoints makes fresh ones per answer):
    // shared, not copied.
    merged.push(point);
  }
  for (; next < cached.length; next += 1) {
    const held = cached[next] as MonthlyPoint;
    const heldIndex = monthIndex(held.month);
    if (!(revises && heldIndex >= first && heldIndex <= last)) merged.push(held);
  }
  return merged;
}

/** Ordered forecasts without the months that have a final (finals ordered too). */
function forecastsAfter(finals: readonly MonthlyPoint[], forecasts: readonly MonthlyPoint[]): MonthlyPoint[] {
  const kept: MonthlyPoint[] = [];
  let next = 0;
  for (const point of forecasts) {
    const index = monthIndex(point.month);
    while (next < finals.length && monthIndex((finals[next] as MonthlyPoint).month) < index) next += 1;
    const final = finals[next];
    if (final !== undefined && monthIndex(final.month) === index) continue;
    kept.push(point);
  }
  return kept;
}

function samePoints(a: readonly MonthlyPoint[], b: readonly MonthlyPoint[]): boolean {
  return (
    a.length === b.length && a.every((point, i) => point.month === b[i]?.month && point.value === b[i]?.value)
  );
}

/** True when a user would see a difference (a value, a month or a forecast). */
export function pointsDiffer(before: SeriesPoints | undefined, after: SeriesPoints): boolean {
  if (!before) return after.finals.length > 0 || after.forecasts.length > 0;
  return !samePoints(before.finals, after.finals) || !samePoints(before.forecasts, after.forecasts);
}
