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
  const finals = new Map<Month, MonthlyPoint>();
  const answerMonths = answer.finals.map((point) => monthIndex(point.month));
  const first = Math.min(...answerMonths);
  const last = Math.max(...answerMonths);
  for (const point of cached?.finals ?? []) {
    const index = monthIndex(point.month);
    if (source === "history" && answerMonths.length > 0 && index >= first && index <= last) continue;
    finals.set(point.month, point);
  }
  for (const point of answer.finals) finals.set(point.month, { month: point.month, value: point.value });
  const keepCached = source === "history" && answer.forecasts.length === 0;
  const forecasts = (keepCached ? (cached?.forecasts ?? []) : answer.forecasts)
    .filter((point) => !finals.has(point.month))
    .map((point) => ({ month: point.month, value: point.value }));
  return { finals: byMonth(finals.values()), forecasts: byMonth(forecasts) };
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
