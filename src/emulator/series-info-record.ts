// The Series Info record (docs/service.md §2.1) of one assessment at the current release.
import { PRODUCT_NAMES, type SeriesDefinition } from "./catalog";
import { monthDate } from "./months";
import type { EmulatorOptions } from "./options";
import type { SeriesView } from "./release-state";
import { wireBoolean, wireText, type WireBoolean } from "./wire-format";

/**
 * The options a record is made of: the wire's not-applicable marker and boolean form. Only
 * these, so that seriesInfoRecord's check of them covers whatever the record reads.
 */
export type RecordOptions = Pick<EmulatorOptions, "naMarker" | "boolStrings">;

export interface SeriesInfoRecord {
  area: string;
  assessment: string;
  available_currencies: string;
  available_units: string;
  code: string;
  commodity: string;
  coverage: string;
  default_currency: string;
  default_unit: string;
  details: string;
  has_forecast: WireBoolean;
  has_preliminary: WireBoolean;
  last_available_final: string;
  location: string;
  product: string;
  remark_1: string;
  remark_2: string;
  series_hist_changed: WireBoolean;
  specification: string;
  updated_at: string;
}

export function remark2(series: SeriesDefinition): string | undefined {
  return series.successorCode === undefined ? undefined : `Discontinued; replaced by ${series.successorCode}`;
}

/** A comma-separated list, or the marker when the series has no currency/unit choice. */
function list(values: readonly string[], options: RecordOptions): string {
  return values.length === 0 ? options.naMarker : values.join(",");
}

export function buildSeriesInfoRecord(
  series: SeriesDefinition,
  view: SeriesView,
  options: RecordOptions,
): SeriesInfoRecord {
  return {
    area: wireText(series.area, options),
    assessment: series.assessment,
    available_currencies: list(series.availableCurrencies, options),
    available_units: list(series.availableUnits, options),
    code: series.code,
    commodity: series.commodity,
    coverage: series.dataset,
    default_currency: wireText(series.defaultCurrency, options),
    default_unit: wireText(series.defaultUnit, options),
    details: wireText(series.details, options),
    has_forecast: wireBoolean(series.hasForecast, options),
    has_preliminary: wireBoolean(series.hasPreliminary, options),
    last_available_final: monthDate(view.lastFinal),
    location: series.location,
    product: PRODUCT_NAMES[series.product],
    remark_1: `lag: ${series.lag}`,
    remark_2: wireText(remark2(series), options),
    series_hist_changed: wireBoolean(view.histChanged, options),
    specification: series.specification,
    updated_at: view.updatedAt,
  };
}

interface BuiltRecord {
  lastFinal: number;
  updatedAt: string;
  histChanged: boolean;
  naMarker: string;
  boolStrings: boolean;
  record: SeriesInfoRecord;
}

/**
 * The last record built per series: a Series Info answer builds one per series of a product
 * (over a thousand), every engine that signs in asks for three, and between releases a series'
 * record does not change. It is rebuilt when anything it is made of differs; nothing changes a
 * record once built (the answer is serialised as it is).
 */
const lastBuilt = new WeakMap<SeriesDefinition, BuiltRecord>();

export function seriesInfoRecord(
  series: SeriesDefinition,
  view: SeriesView,
  options: RecordOptions,
): SeriesInfoRecord {
  const built = lastBuilt.get(series);
  if (
    built !== undefined &&
    built.lastFinal === view.lastFinal &&
    built.updatedAt === view.updatedAt &&
    built.histChanged === view.histChanged &&
    built.naMarker === options.naMarker &&
    built.boolStrings === options.boolStrings
  ) {
    return built.record;
  }
  const record = buildSeriesInfoRecord(series, view, options);
  lastBuilt.set(series, {
    lastFinal: view.lastFinal,
    updatedAt: view.updatedAt,
    histChanged: view.histChanged,
    naMarker: options.naMarker,
    boolStrings: options.boolStrings,
    record,
  });
  return record;
}
