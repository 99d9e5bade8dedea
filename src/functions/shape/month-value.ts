// V(m) of the toolkit functions: the final of a month, else its forecast; when neither
// exists, an error naming the month and the range the series has.
import type { SeriesData } from "../../core/engine-api";
import { PcdError } from "../../core/errors";
import type { Month } from "../../core/model";
import { describeHoldings } from "./value-cell";

export interface MonthValue {
  value: number;
  status: "final" | "forecast";
}

export function findMonthValue(data: SeriesData, month: Month): MonthValue | undefined {
  const final = data.finals.find((point) => point.month === month);
  if (final) return { value: final.value, status: "final" };
  const forecast = data.forecasts.find((point) => point.month === month);
  return forecast ? { value: forecast.value, status: "forecast" } : undefined;
}

export function monthValue(data: SeriesData, month: Month): number {
  const found = findMonthValue(data, month);
  if (found) return found.value;
  throw new PcdError("not_found", `No value for ${data.info.code} in ${month} (${describeHoldings(data)}).`);
}

/** The latest final month of a series (to_date's default). */
export function latestFinalMonth(data: SeriesData): Month {
  const month = data.lastFinal ?? data.finals[data.finals.length - 1]?.month;
  if (month === undefined) {
    throw new PcdError("not_found", `No final values for ${data.info.code} yet (${describeHoldings(data)}).`);
  }
  return month;
}
