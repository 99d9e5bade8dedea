// The benchmark's own reading of Series Info records (docs/service.md §2.1) as the service sends
// them. Workloads are generated from it and bounds are computed from it, without the
// engine's parser, so a parsing mistake in the engine cannot hide in the bounds.
import { CURRENCIES, UNITS, findByName, type ReferenceEntry } from "./reference";

export const PRODUCTS = ["energy_price", "commodity_price", "industry_economics"] as const;
export type Product = (typeof PRODUCTS)[number];

/** What one call may mix: industry economics accepts one data type per call (docs/service.md §4.6). */
export type DataType = "energy" | "commodity" | "utilities" | "location_factor" | "cost_index";

export interface CatalogSeries {
  code: string;
  product: Product;
  dataType: DataType;
  coverage: string;
  /** null where the record holds a "not applicable" marker. */
  defaultCurrency: string | null;
  defaultUnit: string | null;
  availableCurrencies: string[];
  availableUnits: string[];
  /** "YYYY-MM-DD" */
  lastAvailableFinal: string;
  updatedAt: string;
  seriesHistChanged: boolean;
}

/**
 * The data type from the record's wording as the emulator writes it: commodity
 * "Location Factor" or "Plant Construction Cost Index" in the industry economics
 * product, utilities for the rest of that product.
 */
export function dataTypeOf(product: Product, commodity: string, assessment: string): DataType {
  if (product === "energy_price") return "energy";
  if (product === "commodity_price") return "commodity";
  const wording = `${commodity} ${assessment}`;
  if (/location factor/i.test(wording)) return "location_factor";
  if (/cost index/i.test(wording)) return "cost_index";
  return "utilities";
}

function text(record: Readonly<Record<string, unknown>>, field: string): string {
  const value = record[field];
  if (typeof value !== "string") {
    throw new Error(`Series Info record ${String(record.code)}: field ${field} is not text`);
  }
  return value;
}

function flag(record: Readonly<Record<string, unknown>>, field: string): boolean {
  const value = record[field];
  return value === true || value === "True" || value === "true";
}

/** A short name known to the reference table, else null (markers like "n/a" or "-"). */
function known(table: readonly ReferenceEntry[], name: string): string | null {
  return findByName(table, name)?.shortName ?? null;
}

function list(table: readonly ReferenceEntry[], value: string): string[] {
  return value
    .split(",")
    .map((name) => known(table, name))
    .filter((name): name is string => name !== null);
}

export function parseSeriesInfo(product: Product, record: Readonly<Record<string, unknown>>): CatalogSeries {
  return {
    code: text(record, "code"),
    product,
    dataType: dataTypeOf(product, text(record, "commodity"), text(record, "assessment")),
    coverage: text(record, "coverage"),
    defaultCurrency: known(CURRENCIES, text(record, "default_currency")),
    defaultUnit: known(UNITS, text(record, "default_unit")),
    availableCurrencies: list(CURRENCIES, text(record, "available_currencies")),
    availableUnits: list(UNITS, text(record, "available_units")),
    lastAvailableFinal: text(record, "last_available_final"),
    updatedAt: text(record, "updated_at"),
    seriesHistChanged: flag(record, "series_hist_changed"),
  };
}
