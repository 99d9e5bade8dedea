// The value model: deterministic monthly series (seasonal, mean-reverting random walks in
// log space) and consistent conversion. Values are generated in USD per default unit and
// converted with monthly exchange rates and exact unit sizes, so every conversion is one
// factor: EUR -> USD -> EUR round-trips, 1 MWh = 1000 kWh exactly.
import type { SeriesDefinition } from "./catalog";
import { keyedSeeds, Prng, uniformFor } from "./prng";
import { unitByName, type CurrencyName, type UnitName } from "./reference";

/** Six significant digits: realistic precision without long binary fractions on the wire. */
export function roundValue(value: number): number {
  return Number(value.toPrecision(6));
}

/** Exchange rate walks: [USD per unit around 2007, lower bound, upper bound]. */
const RATE_WALKS: Readonly<Record<CurrencyName, readonly [number, number, number]>> = {
  USD: [1, 1, 1],
  "USD cent": [0.01, 0.01, 0.01],
  EUR: [1.35, 1.0, 1.6],
  GBP: [1.95, 1.15, 2.05],
  CNY: [0.135, 0.13, 0.165],
  JPY: [0.0085, 0.0062, 0.0125],
};

/** One step of a revision: which months it changed (those before `beforeMonth`). */
export interface Revision {
  beforeMonth: number;
}

/**
 * Each series' walk (log values by month index) per seed, shared by every ValueModel: a month's
 * value depends only on the seed and the series, and a test starts many emulators that each
 * answer for the same series.
 */
const walks = new WeakMap<SeriesDefinition, Map<number, number[]>>();

function walkOf(series: SeriesDefinition, seed: number): number[] {
  let bySeed = walks.get(series);
  if (bySeed === undefined) {
    bySeed = new Map();
    walks.set(series, bySeed);
  }
  let path = bySeed.get(seed);
  if (path === undefined) {
    path = [Math.log(series.magnitude)];
    bySeed.set(seed, path);
  }
  return path;
}

export class ValueModel {
  private readonly ratePaths = new Map<CurrencyName, number[]>();
  /** Each series' seasonal phase, drawn once: every month of every answer needs it, and hashing its key is a value's costliest step. */
  private readonly phases = new Map<string, number>();

  constructor(private readonly seed: number) {}

  /** US dollars per one unit of a currency in a month. */
  usdPer(currency: CurrencyName, month: number): number {
    const [start, low, high] = RATE_WALKS[currency];
    if (low === high) return start;
    let path = this.ratePaths.get(currency);
    if (path === undefined) {
      path = [start];
      this.ratePaths.set(currency, path);
    }
    while (path.length <= month) {
      // One generator per step keeps each month's value independent of when it was computed.
      const step = Prng.from(this.seed, "fx", currency, path.length).normal();
      const previous = path[path.length - 1] ?? start;
      const next = previous * Math.exp(0.02 * step);
      path.push(Math.min(high, Math.max(low, next)));
    }
    return path[Math.max(0, month)] ?? start;
  }

  /** Final value in the series' default currency and unit (index points for non-priced series). */
  final(series: SeriesDefinition, month: number, revisions: readonly Revision[]): number {
    let value = this.baseUsd(series, month);
    revisions.forEach((revision, index) => {
      if (month < revision.beforeMonth) {
        const shift = uniformFor(this.seed, "revision", series.code, index, month);
        // Between 0.5% and 3% up or down: visible, but a plausible revision.
        value *= 1 + (shift < 0.5 ? -1 : 1) * (0.005 + Math.abs(shift - 0.5) * 0.05);
      }
    });
    return this.fromUsd(series, value, month);
  }

  /** Forecast made when `lastFinal` was the latest final; it differs from the later final. */
  forecast(
    series: SeriesDefinition,
    lastFinal: number,
    month: number,
    revisions: readonly Revision[],
  ): number {
    const error = (uniformFor(this.seed, "forecast", series.code, lastFinal, month) - 0.5) * 0.06;
    return this.final(series, month, revisions) * (1 + error * Math.sqrt(month - lastFinal));
  }

  /** Converts a value in the series' defaults to another currency and unit of the same month. */
  convert(
    series: SeriesDefinition,
    value: number,
    month: number,
    currency: CurrencyName | undefined,
    unit: UnitName | undefined,
  ): number {
    let result = value;
    if (series.defaultCurrency !== undefined && currency !== undefined) {
      result = (result * this.usdPer(series.defaultCurrency, month)) / this.usdPer(currency, month);
    }
    if (series.defaultUnit !== undefined && unit !== undefined) {
      // A price per unit scales with the unit's size.
      result = (result * unitByName(unit).size) / unitByName(series.defaultUnit).size;
    }
    return result;
  }

  /** Sandbox values: dummy negative numbers (docs/service.md §4.7), deterministic per code and month. */
  sandbox(series: SeriesDefinition, month: number): number {
    return -roundValue(1 + uniformFor(this.seed, "sandbox", series.code, month) * 99);
  }

  private fromUsd(series: SeriesDefinition, usd: number, month: number): number {
    return series.defaultCurrency === undefined ? usd : usd / this.usdPer(series.defaultCurrency, month);
  }

  private baseUsd(series: SeriesDefinition, month: number): number {
    const path = walkOf(series, this.seed);
    if (path.length <= month) {
      // Continue the walk where it stopped (one generator per step, so a month's value
      // never depends on how far the path had been computed before).
      const stepSeed = keyedSeeds(this.seed, "walk", series.code);
      while (path.length <= month) {
        const index = path.length;
        const random = new Prng(stepSeed(index));
        const previous = path[index - 1] ?? Math.log(series.magnitude);
        const target = Math.log(series.magnitude) + (series.drift * index) / 12;
        const next =
          previous + series.drift / 12 + series.volatility * random.normal() + 0.05 * (target - previous);
        path.push(next);
      }
    }
    let phase = this.phases.get(series.code);
    if (phase === undefined) {
      phase = uniformFor(this.seed, "season", series.code) * 2 * Math.PI;
      this.phases.set(series.code, phase);
    }
    const season = 1 + series.seasonality * Math.sin((2 * Math.PI * (month % 12)) / 12 + phase);
    return Math.exp(path[Math.max(0, month)] ?? Math.log(series.magnitude)) * season;
  }
}
