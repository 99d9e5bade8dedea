// PCD.RELOCATE: an estimate moved from one location to another with two location-factor
// series, amount × LF_to(d) / LF_from(d). d defaults to the latest final month both have.
import type { Engine, SeriesRequest } from "../core/engine-api";
import { locationFactorBase, sameBase, type LocationFactorBase } from "../core/location-factor-base";
import type { Month, SeriesInfo } from "../core/model";
import { monthIndex } from "../core/months";
import { parseAmount } from "./arguments/amount";
import { argumentError, shortened } from "./arguments/argument-error";
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
 * A ratio of two factors means something only when both are relative to one base: a
 * factor whose base its texts do not say is refused too, since it cannot be checked.
 */
async function checkSameBase(engine: Engine, from: SeriesInfo, to: SeriesInfo): Promise<void> {
  const fromBase = locationFactorBase(from);
  const toBase = locationFactorBase(to);
  for (const [argument, info, base] of [
    ["from_code", from, fromBase],
    ["to_code", to, toBase],
  ] as const) {
    if (base !== null) continue;
    throw argumentError(
      argument,
      `The ${argument} ${info.code} ("${shortened(info.assessment)}") does not say which location it is relative to: PCD.RELOCATE needs two factors it can tell are on one base.`,
    );
  }
  if (fromBase === null || toBase === null || sameBase(fromBase.base, toBase.base)) return;
  const cause = `The from_code ${from.code} is relative to ${shortened(fromBase.base)}, the to_code ${to.code} to ${shortened(toBase.base)}: their ratio means nothing.`;
  if (sameBase(fromBase.location, toBase.location)) {
    throw argumentError(
      "to_code",
      `${cause} Both are factors of ${shortened(fromBase.location)}: an amount stays where it is, so give one factor twice, e.g. ${from.code}.`,
    );
  }
  const pair = commonBasePair(await engine.catalog(from.product), fromBase, toBase);
  const places = `${shortened(fromBase.location)} and ${shortened(toBase.location)}`;
  const advice = pair
    ? ` Factors of ${places} on one base: ${pair.from} and ${pair.to} (vs ${shortened(pair.base)}).`
    : ` The catalog has no factors of ${places} on one base.`;
  throw argumentError("to_code", `${cause}${advice}`);
}

/** Factor series of both locations on one base: the from factor's base first, then the to factor's, then any. */
function commonBasePair(
  catalog: readonly SeriesInfo[],
  from: LocationFactorBase,
  to: LocationFactorBase,
): { from: string; to: string; base: string } | null {
  const byBase = new Map<string, { base: string; from?: string; to?: string }>();
  for (const info of catalog) {
    if (info.dataType !== "location_factor") continue;
    const factor = locationFactorBase(info);
    if (factor === null) continue;
    const key = factor.base.toLowerCase();
    const entry = byBase.get(key) ?? { base: factor.base };
    if (entry.from === undefined && sameBase(factor.location, from.location)) entry.from = info.code;
    if (entry.to === undefined && sameBase(factor.location, to.location)) entry.to = info.code;
    byBase.set(key, entry);
  }
  const preferred = [from.base.toLowerCase(), to.base.toLowerCase()];
  const entries = [...byBase.entries()].sort(([a], [b]) => rank(preferred, a) - rank(preferred, b));
  for (const [, entry] of entries) {
    if (entry.from !== undefined && entry.to !== undefined) {
      return { from: entry.from, to: entry.to, base: entry.base };
    }
  }
  return null;
}

function rank(preferred: readonly string[], base: string): number {
  const index = preferred.indexOf(base);
  return index === -1 ? preferred.length : index;
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
