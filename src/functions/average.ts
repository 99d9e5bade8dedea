// PCD.AVERAGE: the mean of a series over the months from start to end inclusive (a budget's
// annual average). V = final, else forecast; with forecast 0, finals only. A month without a
// value is #N/A naming it: an average over fewer months than asked would be a wrong number.
import type { Engine } from "../core/engine-api";
import { PcdError } from "../core/errors";
import type { Month } from "../core/model";
import { monthIndex } from "../core/months";
import { argumentError } from "./arguments/argument-error";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { checkMonthRange, parseMonthArgument } from "./arguments/dates";
import { parseForecast } from "./arguments/options";
import { seriesForCell } from "./series-for-cell";
import { findMonthValue } from "./shape/month-value";
import { describeHoldings } from "./shape/value-cell";
import type { CellJob } from "./streaming-cell";

export interface AverageArguments {
  code: unknown;
  start_date: unknown;
  end_date: unknown;
  currency: unknown;
  unit: unknown;
  forecast: unknown;
}

export interface AverageRequest {
  code: string;
  start: Month;
  end: Month;
  currency: string | number | null;
  unit: string | number | null;
  /** 1: forecasts stand in for months without a final; 0: finals only. */
  forecast: 0 | 1;
}

function required(month: Month | null, argument: "start_date" | "end_date"): Month {
  if (month !== null) return month;
  throw argumentError(argument, `The ${argument} is required: a date or "YYYY-MM" text.`);
}

export function parseAverageArguments(args: AverageArguments): AverageRequest {
  const code = parseCode(args.code);
  const start = required(parseMonthArgument(args.start_date, "start_date"), "start_date");
  const end = required(parseMonthArgument(args.end_date, "end_date"), "end_date");
  checkMonthRange(start, end);
  const forecast = parseForecast(args.forecast);
  if (forecast === 2) {
    throw argumentError(
      "forecast",
      "The forecast must be 1 (finals, else forecasts; the default) or 0 (finals only); got 2.",
      ["0", "1"],
    );
  }
  return {
    code,
    start,
    end,
    currency: parseCurrencyOrUnit(args.currency, "currency"),
    unit: parseCurrencyOrUnit(args.unit, "unit"),
    forecast,
  };
}

function monthsFrom(start: Month, end: Month): Month[] {
  const months: Month[] = [];
  for (let index = monthIndex(start); index <= monthIndex(end); index += 1) {
    months.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`);
  }
  return months;
}

export function averageJob(engine: Engine, args: AverageArguments): CellJob<number> {
  return {
    watch: "data",
    compute: async (run) => {
      const request = parseAverageArguments(args);
      const need = { from: request.start, to: request.end };
      const data = await seriesForCell(engine, request, need, run);
      let sum = 0;
      const months = monthsFrom(request.start, request.end);
      for (const month of months) {
        const found = findMonthValue(data, month);
        if (!found || (request.forecast === 0 && found.status !== "final")) {
          const what = request.forecast === 0 ? "final value" : "value";
          throw new PcdError(
            "not_found",
            `No ${what} for ${request.code} in ${month}, so no average from ${request.start} to ${request.end} (${describeHoldings(data)}).`,
          );
        }
        sum += found.value;
      }
      return sum / months.length;
    },
  };
}
