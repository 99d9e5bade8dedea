// PCD.VALUE: one month's number (final, else forecast), or the latest final.
import type { Engine } from "../core/engine-api";
import type { Month } from "../core/model";
import { LATEST_ONLY, type SeriesNeed } from "../core/series-need";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { parseMonthArgument } from "./arguments/dates";
import { seriesForCell, seriesForCellNow } from "./series-for-cell";
import { pickValue } from "./shape/value-cell";
import type { CellJob, CellRun } from "./streaming-cell";

export interface ValueArguments {
  code: unknown;
  date: unknown;
  currency: unknown;
  unit: unknown;
}

export interface ValueRequest {
  code: string;
  month: Month | null;
  currency: string | number | null;
  unit: string | number | null;
}

export function parseValueArguments(args: ValueArguments): ValueRequest {
  return {
    code: parseCode(args.code),
    month: parseMonthArgument(args.date, "date"),
    currency: parseCurrencyOrUnit(args.currency, "currency"),
    unit: parseCurrencyOrUnit(args.unit, "unit"),
  };
}

/** One month, or the latest final: never more than that month's part of the series. */
export function valueNeed(month: Month | null): SeriesNeed {
  return month === null ? LATEST_ONLY : { from: month, to: month };
}

export function valueJob(engine: Engine, args: ValueArguments): CellJob<number> {
  return new ValueJob(engine, args);
}

/** A class, not an object of closures: one job per cell lives as long as the cell (values.ts). */
class ValueJob implements CellJob<number> {
  readonly watch = "data";

  constructor(
    private readonly engine: Engine,
    private readonly args: ValueArguments,
  ) {}

  computeNow(track: (key: string, need?: SeriesNeed) => void): number | undefined {
    const request = parseValueArguments(this.args);
    const data = seriesForCellNow(this.engine, request, valueNeed(request.month), track);
    return data && pickValue(data, request.month);
  }

  async compute(run: CellRun): Promise<number> {
    const request = parseValueArguments(this.args);
    // Returned, not awaited (series-for-cell.ts says why).
    return seriesForCell(this.engine, request, valueNeed(request.month), run).then((data) =>
      pickValue(data, request.month),
    );
  }
}
