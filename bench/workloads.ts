// Workbooks for the benchmark, generated deterministically (seeded) from the service's
// own Series Info: formula text lines the headless runner accepts, mixing the three
// products and PCD.VALUES / PCD.VALUE / PCD.INFO the way a cost model does. About a
// quarter of the data cells ask for a currency or unit, some spell out the series'
// default currency (which must share the default's data request) and a fifth of the
// cells repeat the request of another cell.
import type { CatalogSeries, Product } from "./catalog";
import { LATEST, type Reads } from "./needs";
import { SeededRandom } from "./prng";

export type FormulaKind = "VALUES" | "VALUE" | "INFO";

export interface BenchFormula {
  text: string;
  kind: FormulaKind;
  code: string;
  product: Product;
  /** Currency and unit exactly as written in the formula, null when omitted. */
  currency: string | null;
  unit: string | null;
  /** The months the cell reads (absent: the whole series). */
  reads?: Reads;
}

export interface WorkbookComposition {
  formulas: number;
  byKind: Record<FormulaKind, number>;
  byProduct: Record<Product, number>;
  /** Data cells with a currency or unit other than the series default. */
  withOptions: number;
  /** Data cells that write the series' default currency out. */
  spelledDefault: number;
  /** Cells generated as a repeat of another cell's request. */
  duplicates: number;
}

export interface Workbook {
  formulas: BenchFormula[];
  composition: WorkbookComposition;
}

export interface WorkbookShape {
  /** Share of the cells that repeat another cell's request. */
  duplicateShare: number;
  /** Share of the data cells with a currency/unit option. */
  optionShare: number;
  /** Share of the other data cells that spell the default currency out. */
  spelledDefaultShare: number;
  kindWeights: Record<FormulaKind, number>;
  productWeights: Record<Product, number>;
}

export const DEFAULT_SHAPE: WorkbookShape = {
  duplicateShare: 0.2,
  optionShare: 0.25,
  spelledDefaultShare: 0.1,
  kindWeights: { VALUES: 0.4, VALUE: 0.45, INFO: 0.15 },
  productWeights: { energy_price: 0.35, commodity_price: 0.4, industry_economics: 0.25 },
};

const INFO_FIELDS: readonly (string | null)[] = [
  null,
  "assessment",
  "coverage",
  "default_currency",
  "last_available_final",
  "updated_at",
];

function quote(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** `=PCD.NAME(a,b,,d)` with trailing omitted arguments dropped. */
/** Toolkit functions are written by the need workbooks (need-workloads.ts). */
export type FormulaName = FormulaKind | "ESCALATE" | "CHANGE" | "AVERAGE";

export function formulaText(name: FormulaName, args: readonly (string | null)[]): string {
  const kept = [...args];
  while (kept.length > 0 && kept[kept.length - 1] === null) kept.pop();
  return `=PCD.${name}(${kept.map((arg) => arg ?? "").join(",")})`;
}

/** The month `back` months before a "YYYY-MM-DD" date, as [year, month]. */
export function monthsBefore(date: string, back: number): [number, number] {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const index = year * 12 + (month - 1) - back;
  return [Math.floor(index / 12), (index % 12) + 1];
}

function weighted<T extends string>(random: SeededRandom, weights: Record<T, number>): T {
  const entries = Object.entries(weights) as [T, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let draw = random.next() * total;
  for (const [name, weight] of entries) {
    draw -= weight;
    if (draw < 0) return name;
  }
  const last = entries[entries.length - 1];
  if (last === undefined) throw new Error("No weights given");
  return last[0];
}

function hasOptions(series: CatalogSeries): boolean {
  return series.availableCurrencies.length > 1 || series.availableUnits.length > 1;
}

/** Cycles through a product's series in a seeded order, so a large workbook reuses series. */
class SeriesPool {
  private position = 0;
  private readonly order: CatalogSeries[];

  constructor(series: readonly CatalogSeries[], random: SeededRandom) {
    this.order = random.shuffled(series);
  }

  get size(): number {
    return this.order.length;
  }

  take(): CatalogSeries {
    const series = this.order[this.position % this.order.length];
    if (series === undefined) throw new Error("Empty series pool");
    this.position += 1;
    return series;
  }
}

interface DataRequest {
  series: CatalogSeries;
  currency: string | null;
  unit: string | null;
}

function dataFormula(kind: "VALUES" | "VALUE", request: DataRequest, random: SeededRandom): BenchFormula {
  const { series, currency, unit } = request;
  const currencyArg = currency === null ? null : quote(currency);
  const unitArg = unit === null ? null : quote(unit);
  let args: (string | null)[];
  let reads: Reads;
  const monthText = (year: number, month: number): string => `${year}-${String(month).padStart(2, "0")}`;
  if (kind === "VALUES") {
    const [year, month] = monthsBefore(series.lastAvailableFinal, 12 * (1 + random.below(6)));
    const start = random.chance(0.3) ? monthText(year, month) : null;
    args = [quote(series.code), currencyArg, unitArg, start === null ? null : quote(start)];
    reads = { from: start, to: null };
  } else {
    const [year, month] = monthsBefore(series.lastAvailableFinal, random.below(24));
    const dated = random.chance(0.7);
    args = [quote(series.code), dated ? `DATE(${year},${month},1)` : null, currencyArg, unitArg];
    reads = dated ? { from: monthText(year, month), to: monthText(year, month) } : LATEST;
  }
  return {
    text: formulaText(kind, args),
    kind,
    code: series.code,
    product: series.product,
    currency,
    unit,
    reads,
  };
}

function infoFormula(series: CatalogSeries, random: SeededRandom): BenchFormula {
  const field = random.pick(INFO_FIELDS);
  return {
    text: formulaText("INFO", [quote(series.code), field === null ? null : quote(field)]),
    kind: "INFO",
    code: series.code,
    product: series.product,
    currency: null,
    unit: null,
  };
}

/** A currency and/or unit other than the defaults; lower case now and then (formulas ignore case). */
function pickOptions(
  series: CatalogSeries,
  random: SeededRandom,
): { currency: string | null; unit: string | null } {
  const currencies = series.availableCurrencies.filter((name) => name !== series.defaultCurrency);
  const units = series.availableUnits.filter((name) => name !== series.defaultUnit);
  const wantCurrency = currencies.length > 0 && (units.length === 0 || random.chance(0.6));
  const wantUnit = units.length > 0 && (!wantCurrency || random.chance(0.4));
  const cased = (name: string): string => (random.chance(0.2) ? name.toLowerCase() : name);
  return {
    currency: wantCurrency ? cased(random.pick(currencies)) : null,
    unit: wantUnit ? cased(random.pick(units)) : null,
  };
}

export function generateWorkbook(
  catalog: readonly CatalogSeries[],
  size: number,
  seed: number,
  shape: WorkbookShape = DEFAULT_SHAPE,
): Workbook {
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`Workbook size must be a positive integer, got ${size}`);
  const random = new SeededRandom(seed);
  const pools = new Map<Product, SeriesPool>();
  const optionPools = new Map<Product, SeriesPool>();
  for (const product of ["energy_price", "commodity_price", "industry_economics"] as const) {
    const series = catalog.filter((entry) => entry.product === product);
    if (series.length === 0) continue;
    pools.set(product, new SeriesPool(series, random));
    const optionable = series.filter(hasOptions);
    if (optionable.length > 0) optionPools.set(product, new SeriesPool(optionable, random));
  }
  const productWeights = Object.fromEntries(
    Object.entries(shape.productWeights).filter(([product]) => pools.has(product as Product)),
  ) as Record<Product, number>;
  if (Object.keys(productWeights).length === 0)
    throw new Error("The catalog holds no series to build formulas from");

  const originals: { formula: BenchFormula; request: DataRequest | null }[] = [];
  const formulas: BenchFormula[] = [];
  const duplicateCount = Math.round(size * shape.duplicateShare);

  for (let index = 0; index < size - duplicateCount; index += 1) {
    const product = weighted(random, productWeights);
    const kind = weighted(random, shape.kindWeights);
    if (kind === "INFO") {
      const formula = infoFormula(takeFrom(pools, product), random);
      originals.push({ formula, request: null });
      formulas.push(formula);
      continue;
    }
    const optionPool = optionPools.get(product);
    let request: DataRequest;
    if (optionPool !== undefined && random.chance(shape.optionShare)) {
      const series = optionPool.take();
      request = { series, ...pickOptions(series, random) };
    } else {
      const series = takeFrom(pools, product);
      const spell = series.defaultCurrency !== null && random.chance(shape.spelledDefaultShare);
      request = { series, currency: spell ? series.defaultCurrency : null, unit: null };
    }
    const formula = dataFormula(kind, request, random);
    originals.push({ formula, request });
    formulas.push(formula);
  }

  for (let index = 0; index < duplicateCount; index += 1) {
    const original = random.pick(originals);
    if (original.request === null || random.chance(0.5)) {
      formulas.push(original.formula);
    } else {
      // The same request through the other data function (a VALUE next to its VALUES table).
      const kind = original.formula.kind === "VALUES" ? "VALUE" : "VALUES";
      formulas.push(dataFormula(kind, original.request, random));
    }
  }

  const shuffled = random.shuffled(formulas);
  const byCode = new Map(catalog.map((series) => [series.code, series]));
  return { formulas: shuffled, composition: describe(shuffled, byCode, duplicateCount) };
}

function takeFrom(pools: ReadonlyMap<Product, SeriesPool>, product: Product): CatalogSeries {
  const pool = pools.get(product);
  if (pool === undefined) throw new Error(`No series of product ${product} in the catalog`);
  return pool.take();
}

function sameName(left: string | null, right: string | null): boolean {
  return left !== null && right !== null && left.toLowerCase() === right.toLowerCase();
}

/** Counts what the workbook holds, from the formulas themselves (not from the generator's intent). */
export function describe(
  formulas: readonly BenchFormula[],
  byCode: ReadonlyMap<string, CatalogSeries>,
  duplicates: number,
): WorkbookComposition {
  const composition: WorkbookComposition = {
    formulas: formulas.length,
    byKind: { VALUES: 0, VALUE: 0, INFO: 0 },
    byProduct: { energy_price: 0, commodity_price: 0, industry_economics: 0 },
    withOptions: 0,
    spelledDefault: 0,
    duplicates,
  };
  for (const formula of formulas) {
    composition.byKind[formula.kind] += 1;
    composition.byProduct[formula.product] += 1;
    const series = byCode.get(formula.code);
    if (formula.kind === "INFO" || series === undefined) continue;
    const currencyIsDefault = sameName(formula.currency, series.defaultCurrency);
    const unitIsDefault = sameName(formula.unit, series.defaultUnit);
    const otherCurrency = formula.currency !== null && !currencyIsDefault;
    const otherUnit = formula.unit !== null && !unitIsDefault;
    if (otherCurrency || otherUnit) composition.withOptions += 1;
    else if (currencyIsDefault) composition.spelledDefault += 1;
  }
  return composition;
}
