// One timeline of a series: finals, then forecasts for the months no final covers yet
// (a final always supersedes the forecast of its month).
import type { SeriesData } from "../../core/engine-api";
import type { Month } from "../../core/model";

export type PointStatus = "final" | "forecast";

export interface SeriesRow {
  month: Month;
  value: number;
  status: PointStatus;
}

/** Oldest first, one row per month. */
export function seriesRows(data: Pick<SeriesData, "finals" | "forecasts">): SeriesRow[] {
  const byMonth = new Map<Month, SeriesRow>();
  // Object literals, not spreads: a spread of points from different sources gives each
  // row a hidden class of its own (hundreds of thousands of them in a large workbook).
  for (const point of data.forecasts)
    byMonth.set(point.month, { month: point.month, value: point.value, status: "forecast" });
  for (const point of data.finals)
    byMonth.set(point.month, { month: point.month, value: point.value, status: "final" });
  return [...byMonth.values()].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
}

/** "2007-01 to 2025-06", or a note that there is no data. */
export function describeSpan(rows: readonly SeriesRow[]): string {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return first && last ? `data runs ${first.month} to ${last.month}` : "the series has no values yet";
}
