// The Series Values record (docs/service.md §2.2) of one requested code, for Series Values (the
// latest 13 finals) and Series Values History (all finals), live or sandbox, with the
// real-shape variants (docs/service.md §6): array order, duplicate dates, extra fields, early-ending history.
import { PRODUCT_NAMES, type SeriesDefinition } from "./catalog";
import type { CodeRequestItem } from "./codes-segment";
import { monthDate } from "./months";
import type { EmulatorOptions } from "./options";
import { Prng, uniformFor } from "./prng";
import { currencyById, unitById, type CurrencyName, type UnitName } from "./reference";
import type { SeriesView } from "./release-state";
import { remark2 } from "./series-info-record";
import { roundValue, type ValueModel } from "./values";
import { wireText } from "./wire-format";

/** Series Values returns the latest concluded month and the 12 before it (docs/service.md §4.3). */
export const VALUES_WINDOW_MONTHS = 13;

export interface DatedValue {
  date: string;
  value: number;
}

export interface SeriesValuesRecord {
  assessment: string;
  code: string;
  coverage: string;
  currency: string;
  product: string;
  remark_1: string;
  remark_2: string;
  series_final_values: DatedValue[];
  series_forecast_values: DatedValue[];
  unit: string;
  updated_at: string;
  [extra: string]: unknown;
}

export interface ValuesRequest {
  kind: "values" | "history";
  sandbox: boolean;
  item: CodeRequestItem;
}

/** The requested currency if the series offers it, else its default (docs/service.md §4.6: not an error). */
export function appliedCurrency(
  series: SeriesDefinition,
  currencyId: number | undefined,
): CurrencyName | undefined {
  if (series.defaultCurrency === undefined) return undefined;
  const wanted = currencyId === undefined ? undefined : currencyById(currencyId)?.shortName;
  return wanted !== undefined && series.availableCurrencies.includes(wanted)
    ? wanted
    : series.defaultCurrency;
}

export function appliedUnit(series: SeriesDefinition, unitId: number | undefined): UnitName | undefined {
  if (series.defaultUnit === undefined) return undefined;
  const wanted = unitId === undefined ? undefined : unitById(unitId)?.shortName;
  return wanted !== undefined && series.availableUnits.includes(wanted) ? wanted : series.defaultUnit;
}

export function buildSeriesValuesRecord(
  series: SeriesDefinition,
  view: SeriesView,
  request: ValuesRequest,
  options: EmulatorOptions,
  model: ValueModel,
): SeriesValuesRecord {
  const currency = appliedCurrency(series, request.item.currencyId);
  const unit = appliedUnit(series, request.item.unitId);
  const valueOf = (month: number, forecast: boolean): DatedValue => {
    if (request.sandbox) return { date: monthDate(month), value: model.sandbox(series, month) };
    const raw = forecast
      ? model.forecast(series, view.lastFinal, month, view.revisions)
      : model.final(series, month, view.revisions);
    return { date: monthDate(month), value: roundValue(model.convert(series, raw, month, currency, unit)) };
  };

  let lastFinalShown = view.lastFinal;
  let firstFinalShown = Math.max(series.startMonth, view.lastFinal - (VALUES_WINDOW_MONTHS - 1));
  if (request.kind === "history") {
    firstFinalShown = series.startMonth;
    if (options.historyEndsBeforeValues) lastFinalShown = view.lastFinal - VALUES_WINDOW_MONTHS;
  }
  const finals: DatedValue[] = [];
  for (let month = firstFinalShown; month <= lastFinalShown; month += 1) finals.push(valueOf(month, false));
  const forecasts: DatedValue[] = [];
  // The real service's History has no forecasts: they come with Series Values only.
  const withForecasts = request.kind !== "history" || options.historyForecasts;
  if (series.hasForecast && withForecasts) {
    for (let step = 1; step <= options.forecastMonths; step += 1) {
      forecasts.push(valueOf(view.lastFinal + step, true));
    }
  }

  const record: SeriesValuesRecord = {
    assessment: series.assessment,
    code: series.code,
    coverage: series.dataset,
    currency: wireText(currency, options),
    product: PRODUCT_NAMES[series.product],
    remark_1: `lag: ${series.lag}`,
    remark_2: wireText(remark2(series), options),
    series_final_values: arrange(withDuplicates(finals, series, options), series, options),
    series_forecast_values: arrange(forecasts, series, options),
    unit: wireText(unit, options),
    updated_at: view.updatedAt,
  };
  if (options.extraFields) {
    Object.assign(record, {
      area: wireText(series.area, options),
      details: wireText(series.details, options),
      incoterm: series.incoterm,
      market_type: series.marketType,
      price_type: series.priceType,
      specification: series.specification,
    });
  }
  return record;
}

/**
 * --duplicate-dates: about one point in eight appears twice, a stale value first and the
 * true value after it (in oldest-first order), so "the last one wins" keeps the truth.
 */
function withDuplicates(
  values: DatedValue[],
  series: SeriesDefinition,
  options: EmulatorOptions,
): DatedValue[] {
  if (!options.duplicateDates) return values;
  const result: DatedValue[] = [];
  for (const point of values) {
    if (uniformFor(options.seed, "duplicate", series.code, point.date) < 0.125) {
      result.push({ date: point.date, value: roundValue(point.value * 0.97) });
    }
    result.push(point);
  }
  return result;
}

/** Values are built oldest first; --order decides what goes on the wire (newest first by default). */
function arrange(values: DatedValue[], series: SeriesDefinition, options: EmulatorOptions): DatedValue[] {
  if (options.order === "oldest") return values;
  if (options.order === "newest") {
    // Reverse by date but keep the duplicates' relative order, so the true value still comes last.
    return stableSortByDate(values, -1);
  }
  const random = Prng.from(options.seed, "shuffle", series.code);
  const shuffled = [...values];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random.next() * (index + 1));
    const here = shuffled[index];
    const there = shuffled[other];
    if (here === undefined || there === undefined) continue;
    shuffled[index] = there;
    shuffled[other] = here;
  }
  return keepDuplicateOrder(shuffled, values);
}

function stableSortByDate(values: DatedValue[], direction: 1 | -1): DatedValue[] {
  return values
    .map((value, index) => ({ value, index }))
    .sort((left, right) =>
      left.value.date === right.value.date
        ? left.index - right.index
        : direction * left.value.date.localeCompare(right.value.date),
    )
    .map(({ value }) => value);
}

/** After shuffling, same-date points are put back in their original relative order. */
function keepDuplicateOrder(shuffled: DatedValue[], original: DatedValue[]): DatedValue[] {
  const queues = new Map<string, DatedValue[]>();
  for (const point of original) queues.set(point.date, [...(queues.get(point.date) ?? []), point]);
  return shuffled.map((point) => queues.get(point.date)?.shift() ?? point);
}
