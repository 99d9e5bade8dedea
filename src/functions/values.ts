// PCD.VALUES: parse the arguments, ask the engine for the series, shape the table.
import type { Engine } from "../core/engine-api";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { checkMonthRange, parseMonthArgument } from "./arguments/dates";
import { parseForecast, parseHeaders, parseOrder } from "./arguments/options";
import type { CellTable } from "./cell-value";
import type { HostCapabilities } from "./host-capabilities";
import { buildValuesTable, type ValuesLayout } from "./shape/values-table";
import type { CellJob } from "./streaming-cell";

export interface ValuesArguments {
  code: unknown;
  currency: unknown;
  unit: unknown;
  start_date: unknown;
  end_date: unknown;
  headers: unknown;
  forecast: unknown;
  order: unknown;
}

export interface ValuesRequest extends ValuesLayout {
  code: string;
  currency: string | number | null;
  unit: string | number | null;
}

/** Validates every argument (PcdError "input" naming the first bad one). */
export function parseValuesArguments(args: ValuesArguments): ValuesRequest {
  const code = parseCode(args.code);
  const currency = parseCurrencyOrUnit(args.currency, "currency");
  const unit = parseCurrencyOrUnit(args.unit, "unit");
  const start = parseMonthArgument(args.start_date, "start_date");
  const end = parseMonthArgument(args.end_date, "end_date");
  checkMonthRange(start, end);
  return {
    code,
    currency,
    unit,
    start,
    end,
    headers: parseHeaders(args.headers),
    forecast: parseForecast(args.forecast),
    order: parseOrder(args.order),
  };
}

export function valuesJob(engine: Engine, args: ValuesArguments, host: HostCapabilities): CellJob<CellTable> {
  return {
    watch: "data",
    compute: async (track) => {
      const request = parseValuesArguments(args);
      await engine.ready();
      const series = await engine.resolve(request.code, request.currency, request.unit);
      track(series.key);
      const data = await engine.getSeries(series);
      return buildValuesTable(data, request, host);
    },
  };
}
