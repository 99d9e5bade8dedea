// How a Series Values or History answer is merged into what is cached. The service
// only ever sends windows (13 months, or a history that may end before that window),
// so the cache accumulates months and each answer updates the months it covers.
import type { SeriesValues } from "./model";
import { PointColumns } from "./point-columns";

export interface SeriesPoints {
  /** Oldest first, one point per month. */
  finals: PointColumns;
  forecasts: PointColumns;
}

export type MergeSource = "values" | "history";

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
  const finals = mergeFinals(cached?.finals ?? PointColumns.EMPTY, answer.finals, source);
  const keepCached = source === "history" && answer.forecasts.length === 0;
  const offered = keepCached ? (cached?.forecasts ?? PointColumns.EMPTY) : answer.forecasts;
  const forecasts = offered.filterMonths((month) => finals.positionOfIndex(month) < 0);
  return { finals, forecasts };
}

/**
 * The finals of cache and answer, into columns of exactly their length: every answer of a
 * cold recalculation is merged, and the merged columns are what the cache keeps. Cached
 * months before and after the answer's range are copied as blocks; only the months inside it
 * are walked (a Series Values answer covers about 13). A History answer drops the cached
 * months inside its range (first to last month); a Series Values answer keeps the cached
 * months it lacks there.
 */
function mergeFinals(cached: PointColumns, answer: PointColumns, source: MergeSource): PointColumns {
  if (answer.length === 0) return cached;
  if (cached.length === 0) return answer;
  const before = cached.positionFrom(answer.indexAt(0));
  const after = cached.positionFrom(answer.indexAt(answer.length - 1) + 1);
  let keptInside = 0;
  if (source === "values") {
    for (let c = before; c < after; c += 1)
      if (answer.positionOfIndex(cached.indexAt(c)) < 0) keptInside += 1;
  }
  const months = new Int32Array(before + answer.length + keptInside + (cached.length - after));
  const values = new Float64Array(months.length);
  cached.copyTo(months, values, 0, before, 0);
  let filled = before;
  if (keptInside === 0) {
    answer.copyTo(months, values, 0, answer.length, filled);
    filled += answer.length;
  } else {
    // Both in month order; the answer's month wins over an equal cached one.
    let c = before;
    let a = 0;
    while (c < after || a < answer.length) {
      const cachedMonth = c < after ? cached.indexAt(c) : Infinity;
      const answerMonth = a < answer.length ? answer.indexAt(a) : Infinity;
      if (cachedMonth < answerMonth) {
        months[filled] = cachedMonth;
        values[filled] = cached.valueAt(c);
        c += 1;
      } else {
        months[filled] = answerMonth;
        values[filled] = answer.valueAt(a);
        a += 1;
        if (cachedMonth === answerMonth) c += 1;
      }
      filled += 1;
    }
  }
  cached.copyTo(months, values, after, cached.length, filled);
  return PointColumns.fromIndexes(months, values);
}

/** True when a user would see a difference (a value, a month or a forecast). */
export function pointsDiffer(before: SeriesPoints | undefined, after: SeriesPoints): boolean {
  if (!before) return after.finals.length > 0 || after.forecasts.length > 0;
  return !before.finals.equals(after.finals) || !before.forecasts.equals(after.forecasts);
}
