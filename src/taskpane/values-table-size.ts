// The size of the table a PCD.VALUES formula will spill, from the series' months (the
// engine's cached series): Insert places several tables one after the other with it. It
// counts as PCD.VALUES builds its table: header rows, then one row per month of the chosen
// span, a forecast month only where no final month is (src/functions/shape/values-table.ts).
import type { SeriesData } from "../core/engine-api";
import { monthIndex } from "../core/months";
import type { ForecastOption, HeadersOption } from "../contracts/formula-options";
import type { ResultSize } from "./insert-formulas";

export interface ValuesTableChoices {
  /** "YYYY-MM" or "" (the series' first / last month). */
  startMonth: string;
  endMonth: string;
  headers: HeadersOption;
  forecast: ForecastOption;
}

export function valuesTableSize(
  data: Pick<SeriesData, "finals" | "forecasts">,
  choices: ValuesTableChoices,
): ResultSize {
  const from = choices.startMonth === "" ? -Infinity : monthIndex(choices.startMonth);
  const to = choices.endMonth === "" ? Infinity : monthIndex(choices.endMonth);
  const inSpan = (index: number): boolean => index >= from && index <= to;
  const finals = new Set<number>();
  for (let position = 0; position < data.finals.length; position += 1)
    finals.add(data.finals.indexAt(position));
  let months = 0;
  if (choices.forecast !== 2) for (const index of finals) if (inSpan(index)) months += 1;
  if (choices.forecast !== 0) {
    for (let position = 0; position < data.forecasts.length; position += 1) {
      const index = data.forecasts.indexAt(position);
      if (!finals.has(index) && inSpan(index)) months += 1;
    }
  }
  const headerRows = choices.headers === 2 ? 2 : choices.headers === 1 ? 1 : 0;
  return { rows: Math.max(1, headerRows + months), columns: choices.forecast === 0 ? 2 : 3 };
}
