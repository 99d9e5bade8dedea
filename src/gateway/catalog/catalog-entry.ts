// What the gateway reads from one Series Info record: where a code's data requests are charged
// (its dataset), which calls it may share (its data type), and the fields that say whether an
// answer bought earlier is still the series' current data.
import { deriveDataType } from "../../core/http/data-type";
import type { DataType, ProductId } from "../../core/model";
import type { DataOperation } from "../gateway-operation";

export interface CatalogEntry {
  code: string;
  dataset: string;
  dataType: DataType;
  /**
   * The month of the latest final value the catalog lists ("YYYY-MM-DD", the month's first day);
   * null when the record has none. A Series Values answer that ends before it is short.
   */
  lastAvailableFinal: string | null;
  /** updated_at and last_available_final: a Series Values answer is current while both stay. */
  valuesFingerprint: string;
  /** The same plus series_hist_changed: a History answer is current while all three stay. */
  historyFingerprint: string;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** Null when the record has no code: it cannot be matched to a request. */
export function catalogEntry(product: ProductId, record: unknown): CatalogEntry | null {
  if (typeof record !== "object" || record === null) return null;
  const fields = record as Record<string, unknown>;
  const code = text(fields.code);
  if (code === null) return null;
  // Booleans come as true/false or "True"/"False": the text form is compared, not interpreted.
  const revised = String(fields.series_hist_changed ?? "");
  const valuesFingerprint = `${String(fields.updated_at ?? "")}|${String(fields.last_available_final ?? "")}`;
  return {
    code,
    dataset: text(fields.coverage) ?? "",
    dataType: deriveDataType(product, {
      productName: text(fields.product),
      commodity: text(fields.commodity),
      assessment: text(fields.assessment),
    }),
    lastAvailableFinal: text(fields.last_available_final),
    valuesFingerprint,
    historyFingerprint: `${valuesFingerprint}|${revised.toLowerCase()}`,
  };
}

export function fingerprintFor(entry: CatalogEntry, operation: DataOperation): string {
  return operation === "series_hist" ? entry.historyFingerprint : entry.valuesFingerprint;
}
