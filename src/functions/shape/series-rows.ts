// One timeline of a series: finals, then forecasts for the months no final covers yet
// (a final always supersedes the forecast of its month).
import type { SeriesData } from "../../core/engine-api";
import type { Month } from "../../core/model";
import { monthOfIndex } from "../../core/months";

export type PointStatus = "final" | "forecast";

export interface SeriesRow {
  month: Month;
  value: number;
  status: PointStatus;
}

/** Oldest first, one row per month (walkTimeline), without a map of months or a sort. */
export function seriesRows(data: Pick<SeriesData, "finals" | "forecasts">): SeriesRow[] {
  const rows: SeriesRow[] = [];
  walkTimeline(data, (index, value, final) => {
    // Object literals of one shape: rows of thousands of series share a hidden class.
    rows.push({ month: monthOfIndex(index), value, status: final ? "final" : "forecast" });
  });
  return rows;
}

/**
 * The timeline, oldest first, walked without a row object per month: the two ascending
 * columns together, a final taking its month from the forecast. `visit` gets each month's
 * index, value and whether it is final. A monthly PCD.VALUES table is cut from it directly
 * (values-table.ts): a row object per month of the whole series, for every table, was the
 * largest allocation of a cold recalculation after the answers themselves.
 */
export function walkTimeline(
  data: Pick<SeriesData, "finals" | "forecasts">,
  visit: (monthIndex: number, value: number, final: boolean) => void,
): void {
  const { finals, forecasts } = data;
  let f = 0;
  let p = 0;
  while (f < finals.length || p < forecasts.length) {
    const finalMonth = f < finals.length ? finals.indexAt(f) : Infinity;
    const forecastMonth = p < forecasts.length ? forecasts.indexAt(p) : Infinity;
    if (finalMonth <= forecastMonth) {
      visit(finalMonth, finals.valueAt(f), true);
      f += 1;
      if (forecastMonth === finalMonth) p += 1;
    } else {
      visit(forecastMonth, forecasts.valueAt(p), false);
      p += 1;
    }
  }
}

/** "2007-01 to 2025-06", or a note that there is no data. */
export function describeSpan(rows: readonly SeriesRow[]): string {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return first && last ? `data runs ${first.month} to ${last.month}` : "the series has no values yet";
}
