// PCD.RELOCATE: an estimate moved from one location to another with two location-factor
// series, amount × LF_to(d) / LF_from(d). d defaults to the latest final month both have.
import type { Engine, SeriesRequest } from "../core/engine-api";
import { errorMessage, PcdError } from "../core/errors";
import type { Month } from "../core/model";
import { monthIndex } from "../core/months";
import { parseAmount } from "./arguments/amount";
import { argumentError } from "./arguments/argument-error";
import { parseCode } from "./arguments/code";
import { parseMonthArgument } from "./arguments/dates";
import { DivisionByZeroError } from "./cell-errors";
import { latestFinalMonth, monthValue } from "./shape/month-value";
import type { CellJob } from "./streaming-cell";
import { valueNeed } from "./value";

export interface RelocateArguments {
  amount: unknown;
  from_code: unknown;
  to_code: unknown;
  date: unknown;
}

function checkLocationFactor(series: SeriesRequest, argument: "from_code" | "to_code"): void {
  if (series.info.dataType === "location_factor") return;
  throw argumentError(
    argument,
    `The ${argument} ${series.info.code} is not a location factor (it is ${series.info.commodity || series.info.assessment}): PCD.RELOCATE needs two location-factor series.`,
  );
}

/**
 * The base check reads the factors' texts with a table of countries: it loads on the first
 * RELOCATE, so Excel does not load it with the functions at start. A failed load is tried
 * again by the next calculation.
 */
let baseCheck: Promise<typeof import("./location-factor-check")> | undefined;

function loadBaseCheck(): Promise<typeof import("./location-factor-check")> {
  baseCheck ??= import(/* webpackChunkName: "location-factor-check" */ "./location-factor-check").catch(
    (error: unknown) => {
      baseCheck = undefined;
      throw new PcdError(
        "network",
        `The add-in could not load its location-factor check (${errorMessage(error)}): check the connection and recalculate.`,
      );
    },
  );
  return baseCheck;
}

function earlier(a: Month | null, b: Month | null): Month | null {
  if (a === null || b === null) return a ?? b;
  return monthIndex(a) <= monthIndex(b) ? a : b;
}

export function relocateJob(engine: Engine, args: RelocateArguments): CellJob<number> {
  return {
    watch: "data",
    compute: async (run) => {
      const amount = parseAmount(args.amount);
      const fromCode = parseCode(args.from_code, "from_code");
      const toCode = parseCode(args.to_code, "to_code");
      const date = parseMonthArgument(args.date, "date", { hasCurrencyAndUnit: false });
      await engine.ready();
      const [from, to] = await Promise.all([
        engine.resolve(fromCode, null, null),
        engine.resolve(toCode, null, null),
      ]);
      checkLocationFactor(from, "from_code");
      checkLocationFactor(to, "to_code");
      const { checkSameBase } = await loadBaseCheck();
      await checkSameBase(engine, from.info, to.info);
      // The month both have: known from the catalog before any data is asked for, so each
      // series is asked for that one month only.
      const month = date ?? earlier(from.info.lastAvailableFinal, to.info.lastAvailableFinal);
      const need = month === null ? valueNeed(null) : valueNeed(month);
      run.track(from.key, need);
      run.track(to.key, need);
      const [fromData, toData] = await Promise.all([
        engine.getSeries(from, need),
        engine.getSeries(to, need),
      ]);
      for (const data of [fromData, toData]) if (data.staleBecause) run.stale(data.staleBecause);
      const d =
        month ?? earlier(latestFinalMonth(fromData), latestFinalMonth(toData)) ?? latestFinalMonth(toData);
      const base = monthValue(fromData, d);
      if (base === 0) {
        throw new DivisionByZeroError(`The location factor of ${fromCode} in ${d} is 0: no ratio to it.`);
      }
      return (amount * monthValue(toData, d)) / base;
    },
  };
}
