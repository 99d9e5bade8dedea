// PCD.VALUE: one month's number (final, else forecast), or the latest final.
import type { Engine } from "../core/engine-api";
import type { Month } from "../core/model";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { parseMonthArgument } from "./arguments/dates";
import { pickValue } from "./shape/value-cell";
import type { CellJob } from "./streaming-cell";

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

export function valueJob(engine: Engine, args: ValueArguments): CellJob<number> {
  return {
    watch: "data",
    compute: async (track) => {
      const request = parseValueArguments(args);
      await engine.ready();
      const series = await engine.resolve(request.code, request.currency, request.unit);
      track(series.key);
      return pickValue(await engine.getSeries(series), request.month);
    },
  };
}
