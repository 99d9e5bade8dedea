// Request keys as docs/decisions.md D5 defines them, computed by the benchmark itself:
// product + code + currency + unit, where a currency or unit equal to the series default
// (in any letter case) is "default", so spelled-out defaults share the default's request.
import type { CatalogSeries, DataType, Product } from "./catalog";
import { CURRENCIES, UNITS, findByName, type ReferenceEntry } from "./reference";
import { widen, WHOLE, type Reads } from "./needs";
import type { BenchFormula } from "./workloads";

const DEFAULT = "default";

export interface BenchRequestKey {
  key: string;
  product: Product;
  dataType: DataType;
  code: string;
  /** Reference IDs, null for the series default. */
  currencyId: number | null;
  unitId: number | null;
  dataset: string;
  /** What the key's cells read together (absent: the whole series). */
  reads?: Reads;
  /** The series' latest final month when the workbook was built ("" when none). */
  lastAvailableFinal?: string;
}

function optionId(
  table: readonly ReferenceEntry[],
  written: string | null,
  fallback: string | null,
): number | null {
  if (written === null) return null;
  const entry = findByName(table, written);
  if (entry === undefined) throw new Error(`Unknown currency or unit '${written}' in a benchmark formula`);
  const defaultEntry = fallback === null ? undefined : findByName(table, fallback);
  return entry.id === defaultEntry?.id ? null : entry.id;
}

/** The request key of a data cell; null for PCD.INFO, which needs no data request. */
export function requestKeyOf(formula: BenchFormula, series: CatalogSeries): BenchRequestKey | null {
  if (formula.kind === "INFO") return null;
  const currencyId = optionId(CURRENCIES, formula.currency, series.defaultCurrency);
  const unitId = optionId(UNITS, formula.unit, series.defaultUnit);
  return {
    key: [series.product, series.code, currencyId ?? DEFAULT, unitId ?? DEFAULT].join("|"),
    product: series.product,
    dataType: series.dataType,
    code: series.code,
    currencyId,
    unitId,
    dataset: series.coverage,
    reads: formula.reads ?? WHOLE,
    lastAvailableFinal: series.lastAvailableFinal,
  };
}

/** The distinct request keys of a workbook, in first-seen order. */
export function distinctRequestKeys(
  formulas: readonly BenchFormula[],
  byCode: ReadonlyMap<string, CatalogSeries>,
): BenchRequestKey[] {
  const keys = new Map<string, BenchRequestKey>();
  for (const formula of formulas) {
    const series = byCode.get(formula.code);
    if (series === undefined)
      throw new Error(`Formula ${formula.text} names a code missing from the catalog`);
    const key = requestKeyOf(formula, series);
    if (key === null) continue;
    const known = keys.get(key.key);
    if (known === undefined) keys.set(key.key, key);
    else known.reads = widen(known.reads ?? WHOLE, key.reads ?? WHOLE);
  }
  return [...keys.values()];
}

/** How many codes are asked in more than one currency or unit, and the most keys of one code. */
export function codesInSeveralKeys(keys: readonly BenchRequestKey[]): { codes: number; mostKeys: number } {
  const perCode = new Map<string, number>();
  for (const key of keys) perCode.set(key.code, (perCode.get(key.code) ?? 0) + 1);
  const counts = [...perCode.values()];
  return { codes: counts.filter((count) => count > 1).length, mostKeys: Math.max(0, ...counts) };
}
