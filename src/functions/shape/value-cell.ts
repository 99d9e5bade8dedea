// The single number of PCD.VALUE: the month's final, else its forecast; without a month
// the latest final. When nothing fits, the error says what the series does hold. Months
// are read in place by their position in the sorted points (series-memo.ts), not by
// scanning or shaping the series per cell.
import type { SeriesData } from "../../core/engine-api";
import { PcdError } from "../../core/errors";
import type { Month } from "../../core/model";
import { seriesMemo } from "./series-memo";

export function pickValue(data: SeriesData, month: Month | null): number {
  const code = data.info.code;
  if (month === null) {
    // Finals are oldest first, one per month (SeriesData): the latest is the last.
    if (data.finals.length > 0) return data.finals.valueAt(data.finals.length - 1);
    throw new PcdError("not_found", `No final values for ${code} yet (${describeHoldings(data)}).`);
  }
  const memo = seriesMemo(data);
  const value = memo.finalOf(month) ?? memo.forecastOf(month);
  if (value !== undefined) return value;
  throw new PcdError("not_found", `No value for ${code} in ${month} (${describeHoldings(data)}).`);
}

export function describeHoldings(data: SeriesData): string {
  // Only the recent part the cells needed may be cached: its span is not the series'.
  const finals =
    data.fromSeriesStart === false && data.finals.length > 0
      ? `${span("finals cached", data.finals)} only; earlier months were not fetched`
      : span("finals", data.finals);
  const parts = [finals, span("forecasts", data.forecasts)].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : "the series has no values yet";
}

function span(label: string, points: SeriesData["finals"]): string {
  // Columns are oldest first: the span is the first and the last month.
  const first = points.firstMonth();
  const last = points.lastMonth();
  return first === null || last === null ? "" : `${label} ${first} to ${last}`;
}
