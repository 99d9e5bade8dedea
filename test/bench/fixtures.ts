// Small hand-made catalogs and request keys for the benchmark's unit tests.
import type { CatalogSeries, DataType, Product } from "../../bench/catalog";
import type { Reads } from "../../bench/needs";
import type { BenchRequestKey } from "../../bench/request-keys";

export function series(
  code: string,
  product: Product,
  overrides: Partial<CatalogSeries> = {},
): CatalogSeries {
  const dataType: DataType =
    product === "energy_price" ? "energy" : product === "commodity_price" ? "commodity" : "utilities";
  return {
    code,
    product,
    dataType,
    coverage: "Germany",
    defaultCurrency: "EUR",
    defaultUnit: "MWh",
    availableCurrencies: ["USD", "EUR", "GBP"],
    availableUnits: ["MWh", "kWh", "GJ"],
    lastAvailableFinal: "2026-10-01",
    updatedAt: "2026-11-04",
    seriesHistChanged: false,
    ...overrides,
  };
}

/** Cells reading only months before the window of a series whose last final is 2026-10: one History request. */
export const OLD_MONTHS: Reads = { from: "2010-01", to: "2010-12" };

export function key(
  code: string,
  product: Product,
  dataType: DataType,
  currencyId: number | null = null,
  reads: Reads = OLD_MONTHS,
): BenchRequestKey {
  return {
    reads,
    lastAvailableFinal: "2026-10-01",
    key: `${product}|${code}|${currencyId ?? "default"}|default`,
    product,
    dataType,
    code,
    currencyId,
    unitId: null,
    dataset: "Germany",
  };
}

/** `count` distinct codes "<prefix>-<i>-1". */
export function codes(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}-1`);
}
