// The Series Info record (docs/service.md §2.1) of one assessment at the current release.
import { PRODUCT_NAMES, type SeriesDefinition } from "./catalog";
import { monthDate } from "./months";
import type { EmulatorOptions } from "./options";
import type { SeriesView } from "./release-state";
import { wireBoolean, wireText, type WireBoolean } from "./wire-format";

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
function list(values: readonly string[], options: EmulatorOptions): string {
  return values.length === 0 ? options.naMarker : values.join(",");
}

export function buildSeriesInfoRecord(
  series: SeriesDefinition,
  view: SeriesView,
  options: EmulatorOptions,
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
