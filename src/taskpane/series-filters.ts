// The picker's filters. Search text goes to the engine's ranked search; with no text the
// picker lists the product's catalog through the same filters here, so both paths agree.
import type { SearchOptions } from "../core/engine-api";
import type { ProductId, SeriesInfo } from "../core/model";

export interface SeriesFilters {
  coverage: string | null;
  commodity: string | null;
  /** true: only series with forecasts; false: no filter (the checkbox is off). */
  hasForecast: boolean;
}

export const NO_FILTERS: SeriesFilters = { coverage: null, commodity: null, hasForecast: false };

export const PRODUCT_LABELS: Record<ProductId, string> = {
  energy_price: "Energy",
  commodity_price: "Commodities",
  industry_economics: "Industry",
};

/** The most results one search shows (the list is virtualised, the engine ranks them). */
export const SEARCH_LIMIT = 500;

export function matchesFilters(info: SeriesInfo, filters: SeriesFilters): boolean {
  if (filters.coverage !== null && info.coverage !== filters.coverage) return false;
  if (filters.commodity !== null && info.commodity !== filters.commodity) return false;
  if (filters.hasForecast && info.hasForecast !== true) return false;
  return true;
}

export function searchOptions(product: ProductId, filters: SeriesFilters): SearchOptions {
  const options: SearchOptions = { product, limit: SEARCH_LIMIT };
  if (filters.coverage !== null) options.coverage = filters.coverage;
  if (filters.commodity !== null) options.commodity = filters.commodity;
  if (filters.hasForecast) options.hasForecast = true;
  return options;
}

/** Distinct values of a field, sorted for a chooser; empty texts are left out. */
export function filterChoices(catalog: readonly SeriesInfo[], field: "coverage" | "commodity"): string[] {
  const values = new Set<string>();
  for (const info of catalog) {
    const value = info[field].trim();
    if (value !== "") values.add(info[field]);
  }
  return [...values].sort((a, b) => a.localeCompare(b));
}

/** The catalog in a stable, readable order (commodity, then coverage, then code). */
export function browseOrder(catalog: readonly SeriesInfo[], filters: SeriesFilters): SeriesInfo[] {
  return catalog
    .filter((info) => matchesFilters(info, filters))
    .sort(
      (a, b) =>
        a.commodity.localeCompare(b.commodity) ||
        a.coverage.localeCompare(b.coverage) ||
        a.code.localeCompare(b.code, undefined, { numeric: true }),
    );
}

/**
 * Currencies or units every selected series offers (the chooser may offer only those,
 * since one choice goes into every inserted formula), in the first series' order.
 */
export function commonChoices(
  series: readonly SeriesInfo[],
  field: "availableCurrencies" | "availableUnits",
): string[] {
  const [first, ...rest] = series;
  if (!first) return [];
  return first[field].filter((choice) => rest.every((info) => info[field].includes(choice)));
}

/** Industry economics series other than utilities take no currency or unit (design.md 2). */
export function takesCurrencyAndUnit(info: SeriesInfo): boolean {
  return info.product !== "industry_economics" || info.dataType === "utilities";
}
