// Every Series Info field (docs/service.md §2.1) with the label the details view shows and the name
// PCD.INFO accepts. Booleans the service did not state clearly (null) read "unknown".
import type { SeriesInfo } from "../core/model";

export interface SeriesField {
  /** The spec's field name, also PCD.INFO's field argument. */
  name: string;
  label: string;
  read(info: SeriesInfo): string;
}

function text(value: string | null): string {
  return value === null || value.trim() === "" ? "—" : value;
}

function yesNo(value: boolean | null): string {
  if (value === null) return "unknown";
  return value ? "yes" : "no";
}

function list(values: readonly string[]): string {
  return values.length === 0 ? "—" : values.join(", ");
}

export const SERIES_FIELDS: readonly SeriesField[] = [
  { name: "code", label: "Code", read: (info) => info.code },
  { name: "assessment", label: "Assessment", read: (info) => text(info.assessment) },
  { name: "product", label: "Product", read: (info) => text(info.productName) },
  { name: "commodity", label: "Commodity", read: (info) => text(info.commodity) },
  { name: "coverage", label: "Coverage (dataset)", read: (info) => text(info.coverage) },
  { name: "location", label: "Location", read: (info) => text(info.location) },
  { name: "area", label: "Area", read: (info) => text(info.area) },
  { name: "specification", label: "Specification", read: (info) => text(info.specification) },
  { name: "details", label: "Details", read: (info) => text(info.details) },
  { name: "default_currency", label: "Default currency", read: (info) => text(info.defaultCurrency) },
  { name: "default_unit", label: "Default unit", read: (info) => text(info.defaultUnit) },
  {
    name: "available_currencies",
    label: "Available currencies",
    read: (info) => list(info.availableCurrencies),
  },
  { name: "available_units", label: "Available units", read: (info) => list(info.availableUnits) },
  { name: "has_forecast", label: "Has forecast", read: (info) => yesNo(info.hasForecast) },
  { name: "has_preliminary", label: "Has preliminary", read: (info) => yesNo(info.hasPreliminary) },
  { name: "series_hist_changed", label: "History revised", read: (info) => yesNo(info.seriesHistChanged) },
  { name: "last_available_final", label: "Last final month", read: (info) => text(info.lastAvailableFinal) },
  { name: "updated_at", label: "Updated", read: (info) => text(info.updatedAt) },
  { name: "remark_1", label: "Remark 1", read: (info) => text(info.remark1) },
  { name: "remark_2", label: "Remark 2", read: (info) => text(info.remark2) },
];

const KNOWN = new Set(SERIES_FIELDS.map((field) => field.name));

/** Fields the service sent beyond the spec (docs/service.md §6.3: extra fields occur), as text. */
export function extraFields(info: SeriesInfo): Array<{ name: string; value: string }> {
  return Object.entries(info.raw)
    .filter(([name]) => !KNOWN.has(name))
    .map(([name, value]) => ({
      name,
      value: typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)),
    }));
}
