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
  const final = data.finals.valueIn(month);
  if (final !== undefined) return { value: final, status: "final" };
  const forecast = data.forecasts.valueIn(month);
  return forecast === undefined ? undefined : { value: forecast, status: "forecast" };
}

export function monthValue(data: SeriesData, month: Month): number {
  const found = findMonthValue(data, month);
  if (found) return found.value;
  throw new PcdError("not_found", `No value for ${data.info.code} in ${month} (${describeHoldings(data)}).`);
}

/** The latest final month of a series (to_date's default). */
export function latestFinalMonth(data: SeriesData): Month {
  const month = data.lastFinal ?? data.finals.lastMonth();
  if (month === null) {
    throw new PcdError("not_found", `No final values for ${data.info.code} yet (${describeHoldings(data)}).`);
  }
  return month;
}
