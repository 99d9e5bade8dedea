// What PCD.ESCALATE and PCD.CHANGE share: one series (code + currency + unit, the request
// key of PCD.VALUES), two months, and V(to) / V(from) with V = final, else forecast. The
// cell reads just those two months, so it costs no request a VALUES cell of the same key
// would not (docs/formulas.md).
import type { Engine } from "../core/engine-api";
import type { Month } from "../core/model";
import { unionNeed, type SeriesNeed } from "../core/series-need";
import { argumentError } from "./arguments/argument-error";
import { parseCode } from "./arguments/code";
import { parseCurrencyOrUnit } from "./arguments/currency-unit";
import { parseMonthArgument } from "./arguments/dates";
import { DivisionByZeroError } from "./cell-errors";
import { seriesForCell } from "./series-for-cell";
import type { CellJob } from "./streaming-cell";
import { latestFinalMonth, monthValue } from "./shape/month-value";
import { valueNeed } from "./value";

export interface RatioArguments {
  code: unknown;
  from_date: unknown;
  to_date: unknown;
  currency: unknown;
  unit: unknown;
}

export interface RatioRequest {
  code: string;
  from: Month;
  /** null = the series' latest final month. */
  to: Month | null;
  currency: string | number | null;
  unit: string | number | null;
}

export function parseRatioArguments(args: RatioArguments): RatioRequest {
  const code = parseCode(args.code);
  const from = parseMonthArgument(args.from_date, "from_date");
  if (from === null) {
    throw argumentError(
      "from_date",
      'The from_date is required: the month to start from, as a date or "YYYY-MM" text.',
    );
  }
  return {
    code,
    from,
    to: parseMonthArgument(args.to_date, "to_date"),
    currency: parseCurrencyOrUnit(args.currency, "currency"),
    unit: parseCurrencyOrUnit(args.unit, "unit"),
  };
}

/** The two months the ratio reads. */
export function ratioNeed(request: Pick<RatioRequest, "from" | "to">): SeriesNeed {
  return unionNeed(valueNeed(request.from), valueNeed(request.to));
}

/** V(to) / V(from) of the series, or #DIV/0! when V(from) is 0. */
export function ratioJob(
  engine: Engine,
  parse: () => RatioRequest,
  finish: (ratio: number) => number,
): CellJob<number> {
  return {
    watch: "data",
    compute: async (run) => {
      const request = parse();
      const data = await seriesForCell(engine, request, ratioNeed(request), run);
      const to = request.to ?? latestFinalMonth(data);
      const from = monthValue(data, request.from);
      const target = monthValue(data, to);
      if (from === 0) {
        throw new DivisionByZeroError(
          `The value of ${request.code} in ${request.from} is 0: no ratio to it.`,
        );
      }
      return finish(target / from);
    },
  };
}
