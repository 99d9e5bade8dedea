// PCD.VALUES: parse the arguments, ask the engine for the series, shape the table.
import type { Engine } from "../core/engine-api";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { checkMonthRange, parseMonthArgument } from "./arguments/dates";
import { LATEST_ONLY, type SeriesNeed } from "../core/series-need";
import { parseFrequency } from "./arguments/frequency";
import { parseForecast, parseHeaders, parseOrder } from "./arguments/options";
import type { CellTable } from "./cell-value";
import type { HostCapabilities } from "./host-capabilities";
import { seriesForCell, seriesForCellNow } from "./series-for-cell";
import { buildValuesTable, type ValuesLayout } from "./shape/values-table";
import type { CellJob, CellRun } from "./streaming-cell";

export interface ValuesArguments {
  code: unknown;
  currency: unknown;
  unit: unknown;
  start_date: unknown;
  end_date: unknown;
  headers: unknown;
  forecast: unknown;
  order: unknown;
  frequency?: unknown;
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
    frequency: parseFrequency(args.frequency),
  };
}

/**
 * The months a table reads: its start and end dates (open ends read the whole series and
 * the latest months); a table of forecasts only reads the Series Values window.
 */
export function valuesNeed(layout: Pick<ValuesLayout, "start" | "end" | "forecast">): SeriesNeed {
  if (layout.forecast === 2) return LATEST_ONLY;
  return { from: layout.start, to: layout.end };
}

export function valuesJob(engine: Engine, args: ValuesArguments, host: HostCapabilities): CellJob<CellTable> {
  return new ValuesJob(engine, args, host);
}

/**
 * A class, not an object of closures: a workbook keeps one job per cell for as long as the
 * cell lives, and methods cost nothing per cell (streaming-cell.ts calls them as methods).
 */
class ValuesJob implements CellJob<CellTable> {
  readonly watch = "data";

  constructor(
    private readonly engine: Engine,
    private readonly args: ValuesArguments,
    private readonly host: HostCapabilities,
  ) {}

  computeNow(track: (key: string, need?: SeriesNeed) => void): CellTable | undefined {
    const request = parseValuesArguments(this.args);
    const data = seriesForCellNow(this.engine, request, valuesNeed(request), track);
    return data && buildValuesTable(data, request, this.host);
  }

  async compute(run: CellRun): Promise<CellTable> {
    const request = parseValuesArguments(this.args);
    // Returned, not awaited (series-for-cell.ts says why).
    return seriesForCell(this.engine, request, valuesNeed(request), run).then((data) =>
      buildValuesTable(data, request, this.host),
    );
  }
}
