// The picker's filters. Search text goes to the engine's ranked search; with no text the
// picker lists the product's catalog through the same filters here, so both paths agree.
import { compareCodes } from "../core/code-order";
import type { SearchOptions } from "../core/engine-api";
import { PRODUCTS, type ProductId, type SeriesInfo } from "../core/model";

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

/** Search options; product null searches every product (the tabs then filter the hits). */
export function searchOptions(product: ProductId | null, filters: SeriesFilters): SearchOptions {
  const options: SearchOptions = { limit: SEARCH_LIMIT };
  if (product !== null) options.product = product;
  if (filters.coverage !== null) options.coverage = filters.coverage;
  if (filters.commodity !== null) options.commodity = filters.commodity;
  if (filters.hasForecast) options.hasForecast = true;
  return options;
}

// One collator for names, made on first use, as for codes (core/code-order.ts).
let names: Intl.Collator | undefined;
const compareNames = (a: string, b: string): number => (names ??= new Intl.Collator()).compare(a, b);

/** Distinct values of a field, sorted for a chooser; empty texts are left out. */
export function filterChoices(catalog: readonly SeriesInfo[], field: "coverage" | "commodity"): string[] {
  const values = new Set<string>();
  for (const info of catalog) {
    const value = info[field].trim();
    if (value !== "") values.add(info[field]);
  }
  return [...values].sort(compareNames);
}

/** The catalog in a stable, readable order (product, commodity, then coverage, then code). */
export function browseOrder(catalog: readonly SeriesInfo[], filters: SeriesFilters): SeriesInfo[] {
  return catalog
    .filter((info) => matchesFilters(info, filters))
    .sort(
      (a, b) =>
        PRODUCTS.indexOf(a.product) - PRODUCTS.indexOf(b.product) ||
        compareNames(a.commodity, b.commodity) ||
        compareNames(a.coverage, b.coverage) ||
        compareCodes(a.code, b.code),
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

/** Industry economics series other than utilities take no currency or unit (docs/decisions.md D3). */
export function takesCurrencyAndUnit(info: SeriesInfo): boolean {
  return info.product !== "industry_economics" || info.dataType === "utilities";
}

/** How many series each product holds in a list (the counts beside the product tabs). */
export function countByProduct(items: readonly SeriesInfo[]): Record<ProductId, number> {
  const counts = Object.fromEntries(PRODUCTS.map((id) => [id, 0])) as Record<ProductId, number>;
  for (const info of items) counts[info.product] += 1;
  return counts;
}

/**
 * Hits grouped by product (in the tabs' order), each group keeping the engine's ranking:
 * a search covers every product and the list shows one group per product.
 */
export function groupByProduct(items: readonly SeriesInfo[]): SeriesInfo[] {
  return PRODUCTS.flatMap((id) => items.filter((info) => info.product === id));
}
