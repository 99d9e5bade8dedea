// The fault matrix's workbook: 500 PCD formulas over the three products (energy,
// commodity, and industry economics utilities, cost indexes and location factors), the
// mix a cost model has: VALUES tables, VALUE grids with and without a month, another
// currency, INFO, SEARCH and LIMITS. Every formula is valid: an error cell in a fault
// run can only come from the fault.
import type { SeriesInfo } from "../../../src/core/model";

export const WORKBOOK_SIZE = 500;

/**
 * The months a data cell reads, as its formula says: from = null is the series' first
 * month, "latest" the latest final month (PCD.VALUE without a date); to = null is
 * open-ended (the latest final and the forecasts).
 */
export interface MonthsRead {
  from: string | "latest" | null;
  to: string | null;
}

export interface WorkbookCell {
  formula: string;
  /** What the cell reads: a request key spelled "code|currency", or the catalog / limits. */
  source: { kind: "data"; series: string; reads: MonthsRead } | { kind: "catalog" } | { kind: "limits" };
  /** The series' dataset ("energy_price|Germany"), for data cells. */
  dataset?: string;
}

export interface Workbook {
  cells: WorkbookCell[];
  /** Formulas that fill the cache before a fault (the first half of the series). */
  warmFormulas: string[];
  /** Data sources ("code|currency") cached before the fault. */
  warmSeries: ReadonlySet<string>;
  /** Distinct data sources of the whole workbook (one request key each). */
  distinctSeries: ReadonlySet<string>;
  series: SeriesInfo[];
}

function take(
  list: readonly SeriesInfo[],
  count: number,
  accept: (info: SeriesInfo) => boolean,
): SeriesInfo[] {
  const found = list.filter(accept).slice(0, count);
  if (found.length < count) throw new Error(`the catalog has only ${found.length} of ${count} series wanted`);
  return found;
}

/** Several series per dataset, so that one dataset can run out while the others continue. */
function spreadOverDatasets(list: readonly SeriesInfo[], datasets: number, perDataset: number): SeriesInfo[] {
  const byDataset = new Map<string, SeriesInfo[]>();
  for (const info of list) byDataset.set(info.coverage, [...(byDataset.get(info.coverage) ?? []), info]);
  return [...byDataset.values()]
    .filter((group) => group.length >= perDataset)
    .slice(0, datasets)
    .flatMap((group) => group.slice(0, perDataset));
}

/** Current series (not discontinued): every month the workbook asks for (2023-01 to 2025-06) has a value. */
function current(list: readonly SeriesInfo[]): SeriesInfo[] {
  return list.filter((info) => info.lastAvailableFinal !== null && info.lastAvailableFinal >= "2025-09");
}

export function buildWorkbook(catalogs: {
  energy: readonly SeriesInfo[];
  commodity: readonly SeriesInfo[];
  industry: readonly SeriesInfo[];
}): Workbook {
  const industry = current(catalogs.industry);
  const series = [
    ...spreadOverDatasets(current(catalogs.energy), 5, 8),
    ...spreadOverDatasets(current(catalogs.commodity), 5, 6),
    ...take(industry, 20, (info) => info.dataType === "utilities"),
    ...take(industry, 5, (info) => info.dataType === "cost_index"),
    ...take(industry, 5, (info) => info.dataType === "location_factor"),
  ];
  const cells: WorkbookCell[] = [];
  const data = (info: SeriesInfo, formula: string, reads: MonthsRead, currency = ""): void => {
    cells.push({
      formula,
      source: { kind: "data", series: `${info.code}|${currency}`, reads },
      dataset: `${info.product}|${info.coverage}`,
    });
  };
  for (const info of series) data(info, `=PCD.VALUES("${info.code}")`, { from: null, to: null });
  for (const info of series) data(info, `=PCD.VALUE("${info.code}")`, { from: "latest", to: null });
  for (const info of series)
    data(info, `=PCD.VALUE("${info.code}","2024-03")`, { from: "2024-03", to: "2024-03" });
  for (const info of series.slice(0, 60)) {
    data(info, `=PCD.VALUES("${info.code}",,,"2025-01","2025-06",0,0,1)`, { from: "2025-01", to: "2025-06" });
  }
  // Another currency is another request key (docs/service.md §2.4: the service converts).
  const converted = series.filter((info) => info.availableCurrencies.length > 1).slice(0, 40);
  for (const info of converted) {
    const other = info.availableCurrencies.find((currency) => currency !== info.defaultCurrency) ?? "";
    data(info, `=PCD.VALUE("${info.code}","2025-01","${other}")`, { from: "2025-01", to: "2025-01" }, other);
  }
  for (const info of series.slice(0, 50)) {
    cells.push({ formula: `=PCD.INFO("${info.code}","assessment")`, source: { kind: "catalog" } });
  }
  for (const info of series.slice(0, 20)) {
    cells.push({ formula: `=PCD.SEARCH("${info.commodity}",,3)`, source: { kind: "catalog" } });
  }
  const datasets = [...new Set(series.map((info) => `${info.coverage}|${info.product}`))].slice(0, 9);
  cells.push({ formula: "=PCD.LIMITS()", source: { kind: "limits" } });
  for (const dataset of datasets) {
    const [coverage, product] = dataset.split("|");
    cells.push({ formula: `=PCD.LIMITS("${coverage}","${product}")`, source: { kind: "limits" } });
  }
  for (const info of series) {
    if (cells.length >= WORKBOOK_SIZE) break;
    data(info, `=PCD.VALUE("${info.code}",DATE(2023,1,1))`, { from: "2023-01", to: "2023-01" });
  }
  if (cells.length !== WORKBOOK_SIZE) throw new Error(`the workbook has ${cells.length} formulas`);

  const warm = series.slice(0, Math.floor(series.length / 2));
  const distinctSeries = new Set(
    cells.flatMap((cell) => (cell.source.kind === "data" ? [cell.source.series] : [])),
  );
  return {
    cells,
    warmFormulas: warm.map((info) => `=PCD.VALUES("${info.code}")`),
    warmSeries: new Set(warm.map((info) => `${info.code}|`)),
    distinctSeries,
    series,
  };
}
