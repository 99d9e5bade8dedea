// What cells derive from one version of a series, derived once and shared by every cell
// that shows it: the PCD.VALUES tables per layout (the timeline rows they are cut from are
// not kept: each table is built once), and PCD.VALUE's month read in place (no index is
// built). A series version never changes (the engine replaces a
// cache entry whole, with a new version), so whatever is derived from it stays true; the
// memo lives as long as the version's arrays do (a WeakMap on them), so replaced versions
// are freed with their data.
import type { SeriesData } from "../../core/engine-api";
import type { Month, MonthlyPoint } from "../../core/model";
import { monthIndex } from "../../core/months";
import type { CellTable } from "../cell-value";
import type { HostCapabilities } from "../host-capabilities";

/** Distinct layouts kept per series version; beyond it the version's tables start afresh. */
export const MAX_TABLES_PER_VERSION = 32;

export class SeriesMemo {
  private readonly tables = new Map<string, CellTable>();
  private tablesHost: HostCapabilities | undefined;

  constructor(
    readonly version: number,
    private readonly data: Pick<SeriesData, "finals" | "forecasts">,
  ) {}

  /** True when this memo was derived from exactly these arrays at this version. */
  describes(data: Pick<SeriesData, "finals" | "forecasts" | "version">): boolean {
    return data.version === this.version && data.forecasts === this.data.forecasts;
  }

  finalOf(month: Month): number | undefined {
    return valueInMonth(this.data.finals, month);
  }

  forecastOf(month: Month): number | undefined {
    return valueInMonth(this.data.forecasts, month);
  }

  /** The table of a layout, built once per version (and host) and frozen: cells share it. */
  table(layoutKey: string, host: HostCapabilities, build: () => CellTable): CellTable {
    if (this.tablesHost !== host) {
      this.tables.clear();
      this.tablesHost = host;
    }
    let table = this.tables.get(layoutKey);
    if (table === undefined) {
      table = build();
      for (const row of table) Object.freeze(row);
      Object.freeze(table);
      if (this.tables.size >= MAX_TABLES_PER_VERSION) this.tables.clear();
      this.tables.set(layoutKey, table);
    }
    return table;
  }
}

const memos = new WeakMap<readonly MonthlyPoint[], SeriesMemo>();

/** The memo of a series version (keyed by its finals array, checked against version and forecasts). */
export function seriesMemo(data: Pick<SeriesData, "finals" | "forecasts" | "version">): SeriesMemo {
  let memo = memos.get(data.finals);
  if (memo === undefined || !memo.describes(data)) {
    memo = new SeriesMemo(data.version, data);
    memos.set(data.finals, memo);
  }
  return memo;
}

/**
 * A month's value, read in place: points are oldest first, one per month (SeriesData), so
 * the month's distance from the first point finds it when there is no gap, and a binary
 * search ("YYYY-MM" sorts as text) when there is. No per-version index is kept: a map per
 * series was a tenth of a large workbook's memory.
 */
export function valueInMonth(points: readonly MonthlyPoint[], month: Month): number | undefined {
  const first = points[0];
  if (first === undefined) return undefined;
  const guess = points[monthIndex(month) - monthIndex(first.month)];
  if (guess?.month === month) return guess.value;
  let low = 0;
  let high = points.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const point = points[middle] as MonthlyPoint;
    if (point.month === month) return point.value;
    if (point.month < month) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
