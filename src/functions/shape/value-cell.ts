// The single number of PCD.VALUE: the month's final, else its forecast; without a month
// the latest final. When nothing fits, the error says what the series does hold.
import type { SeriesData } from "../../core/engine-api";
import { PcdError } from "../../core/errors";
import type { Month } from "../../core/model";

export function pickValue(data: SeriesData, month: Month | null): number {
  const code = data.info.code;
  if (month === null) {
    const latest = data.finals.reduce<{ month: Month; value: number } | undefined>(
      (best, point) => (best === undefined || point.month > best.month ? point : best),
      undefined,
    );
    if (latest) return latest.value;
    throw new PcdError("not_found", `No final values for ${code} yet (${describeHoldings(data)}).`);
  }
  const final = data.finals.find((point) => point.month === month);
  if (final) return final.value;
  const forecast = data.forecasts.find((point) => point.month === month);
  if (forecast) return forecast.value;
  throw new PcdError("not_found", `No value for ${code} in ${month} (${describeHoldings(data)}).`);
}

export function describeHoldings(data: SeriesData): string {
  const parts = [span("finals", data.finals), span("forecasts", data.forecasts)].filter(Boolean);
  return parts.length > 0 ? parts.join("; ") : "the series has no values yet";
}

function span(label: string, points: SeriesData["finals"]): string {
  if (points.length === 0) return "";
  const months = points.map((point) => point.month).sort();
  return `${label} ${months[0]} to ${months[months.length - 1]}`;
}
