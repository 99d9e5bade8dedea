// What cells derive from one version of a series, derived once and shared by every cell
// that shows it: the month -> value indexes PCD.VALUE reads, and the PCD.VALUES tables
// per layout (the timeline rows they are cut from are not kept: each table is built once). A series version never changes (the engine replaces a
// cache entry whole, with a new version), so whatever is derived from it stays true; the
// memo lives as long as the version's arrays do (a WeakMap on them), so replaced versions
// are freed with their data.
import type { SeriesData } from "../../core/engine-api";
import type { Month, MonthlyPoint } from "../../core/model";
import type { CellTable } from "../cell-value";
import type { HostCapabilities } from "../host-capabilities";

/** Distinct layouts kept per series version; beyond it the version's tables start afresh. */
export const MAX_TABLES_PER_VERSION = 32;

export class SeriesMemo {
  private finals: Map<Month, number> | undefined;
  private forecasts: Map<Month, number> | undefined;
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
    this.finals ??= indexByMonth(this.data.finals);
    return this.finals.get(month);
  }

  forecastOf(month: Month): number | undefined {
    this.forecasts ??= indexByMonth(this.data.forecasts);
    return this.forecasts.get(month);
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

function indexByMonth(points: readonly MonthlyPoint[]): Map<Month, number> {
  const index = new Map<Month, number>();
  for (const point of points) index.set(point.month, point.value);
  return index;
}
