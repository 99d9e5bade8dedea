// What cells derive from one version of a series, derived once and shared by every cell
// that shows it: the PCD.VALUES tables per layout (the timeline rows they are cut from are
// not kept: each table is built once), and PCD.VALUE's month read in place (no index is
// built: the columns find a month by its position, src/core/point-columns.ts). A series
// version never changes (the engine replaces a cache entry whole, with a new version), so
// whatever is derived from it stays true; the memo lives as long as the version's columns
// do (a WeakMap on them), so replaced versions are freed with their data.
import type { SeriesData } from "../../core/engine-api";
import type { Month } from "../../core/model";
import type { PointColumns } from "../../core/point-columns";
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
    return this.data.finals.valueIn(month);
  }

  forecastOf(month: Month): number | undefined {
    return this.data.forecasts.valueIn(month);
  }

  /**
   * The table of a layout, built once per version (and host) and frozen: cells share it.
   * Only the table is frozen, not its rows (nothing changes a row once built): freezing a
   * row of numbers makes V8 box each number into an object of its own, which for a large
   * workbook's VALUES tables was the largest single source of memory it allocated.
   */
  table(layoutKey: string, host: HostCapabilities, build: () => CellTable): CellTable {
    if (this.tablesHost !== host) {
      this.tables.clear();
      this.tablesHost = host;
    }
    let table = this.tables.get(layoutKey);
    if (table === undefined) {
      table = build();
      Object.freeze(table);
      if (this.tables.size >= MAX_TABLES_PER_VERSION) this.tables.clear();
      this.tables.set(layoutKey, table);
    }
    return table;
  }
}

const memos = new WeakMap<PointColumns, SeriesMemo>();

/**
 * The memo of a series version, keyed by its finals' columns (checked against version and
 * forecasts). A series without finals is keyed by its forecasts: empty columns are one
 * shared object (PointColumns.EMPTY), which would hold one such series' memo for good and
 * make every other one replace it.
 */
export function seriesMemo(data: Pick<SeriesData, "finals" | "forecasts" | "version">): SeriesMemo {
  const anchor = data.finals.length > 0 ? data.finals : data.forecasts;
  if (anchor.length === 0) return new SeriesMemo(data.version, data);
  let memo = memos.get(anchor);
  if (memo === undefined || !memo.describes(data)) {
    memo = new SeriesMemo(data.version, data);
    memos.set(anchor, memo);
  }
  return memo;
}
