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

export function lastMonthOf(points: readonly MonthlyPoint[]): Month | null {
  let last: MonthlyPoint | undefined;
  for (const point of points) if (!last || monthIndex(point.month) > monthIndex(last.month)) last = point;
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
  const cachedFinals = cached?.finals ?? [];
  const finals =
    isAscending(cachedFinals) && isAscending(answer.finals)
      ? mergeAscending(cachedFinals, answer.finals, source)
      : mergeByMonth(cachedFinals, answer.finals, source);
  const keepCached = source === "history" && answer.forecasts.length === 0;
  const forecasts = (keepCached ? (cached?.forecasts ?? []) : answer.forecasts)
    .filter((point) => !hasMonth(finals, point.month))
    .map((point) => ({ month: point.month, value: point.value }));
  return { finals, forecasts: byMonth(forecasts) };
}

/** Oldest first, one point per month: how the cache and normalised answers hold points. */
function isAscending(points: readonly MonthlyPoint[]): boolean {
  for (let index = 1; index < points.length; index += 1) {
    if (
      monthIndex((points[index - 1] as MonthlyPoint).month) >=
      monthIndex((points[index] as MonthlyPoint).month)
    )
      return false;
  }
  return true;
}

/**
 * The finals of two ascending lists in one pass, into an array of exactly their length:
 * every answer of a cold recalculation is merged, and a map of every month, its iterator
 * and a sort were a tenth of all it allocated; the merged array is what the cache keeps.
 */
function mergeAscending(
  cached: readonly MonthlyPoint[],
  answer: readonly MonthlyPoint[],
  source: MergeSource,
): MonthlyPoint[] {
  const revised = source === "history" && answer.length > 0;
  const first = revised ? monthIndex((answer[0] as MonthlyPoint).month) : 0;
  const last = revised ? monthIndex((answer[answer.length - 1] as MonthlyPoint).month) : -1;
  // Walked twice: once to count, once to fill.
  const walk = (emit: (point: MonthlyPoint, fromAnswer: boolean) => void): void => {
    let c = 0;
    let a = 0;
    while (c < cached.length || a < answer.length) {
      const cachedIndex = c < cached.length ? monthIndex((cached[c] as MonthlyPoint).month) : Infinity;
      const answerIndex = a < answer.length ? monthIndex((answer[a] as MonthlyPoint).month) : Infinity;
      if (cachedIndex < answerIndex) {
        if (cachedIndex < first || cachedIndex > last) emit(cached[c] as MonthlyPoint, false);
        c += 1;
      } else {
        // The answer's month wins over the cached one.
        emit(answer[a] as MonthlyPoint, true);
        a += 1;
        if (cachedIndex === answerIndex) c += 1;
      }
    }
  };
  let count = 0;
  walk(() => (count += 1));
  const merged = new Array<MonthlyPoint>(count);
  let filled = 0;
  walk((point, fromAnswer) => {
    merged[filled] = fromAnswer ? { month: point.month, value: point.value } : point;
    filled += 1;
  });
  return merged;
}

/** The same merge for lists in any order (or with repeated months), by a map of months. */
function mergeByMonth(
  cached: readonly MonthlyPoint[],
  answer: readonly MonthlyPoint[],
  source: MergeSource,
): MonthlyPoint[] {
  const finals = new Map<Month, MonthlyPoint>();
  const answerMonths = answer.map((point) => monthIndex(point.month));
  const first = Math.min(...answerMonths);
  const last = Math.max(...answerMonths);
  for (const point of cached) {
    const index = monthIndex(point.month);
    if (source === "history" && answerMonths.length > 0 && index >= first && index <= last) continue;
    finals.set(point.month, point);
  }
  for (const point of answer) finals.set(point.month, { month: point.month, value: point.value });
  return byMonth(finals.values());
}

/** Whether ascending points hold a month (binary search). */
function hasMonth(points: readonly MonthlyPoint[], month: Month): boolean {
  const wanted = monthIndex(month);
  let low = 0;
  let high = points.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const index = monthIndex((points[middle] as MonthlyPoint).month);
    if (index === wanted) return true;
    if (index < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
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
