// What a release changed in one cached series: the months it added and the history it
// revised, each with the value before and after. Refresh-all computes it from the cache
// entry before its sync and the entry after (src/core/refresh.ts), so the pane can list
// what changed and write it to a report sheet. Only finals count: forecasts move with
// every release and are not history.
import type { Month } from "./model";
import type { PointColumns } from "./point-columns";

export interface ChangedMonth {
  month: Month;
  /** "new": a month the cache did not hold; "revised": a month whose value changed. */
  kind: "new" | "revised";
  /** The cached value before the refresh (null for a new month). */
  before: number | null;
  after: number;
  /** (after - before) / |before| × 100; null for a new month or a revision from 0. */
  changePercent: number | null;
}

export interface SeriesReleaseChanges {
  key: string;
  code: string;
  currency: string | null;
  unit: string | null;
  /** Revisions first (oldest month first), then new months (oldest first). */
  months: ChangedMonth[];
}

interface EntryPoints {
  key: string;
  finals: PointColumns;
  currency: string | null;
  unit: string | null;
}

/**
 * The changes between two states of one key's entry, or null when nothing changed. An
 * entry with no earlier state is a first load, not a release's change: null too (a
 * series added to the workbook since the last refresh would otherwise list its whole
 * history as "new").
 */
export function releaseChanges(
  code: string,
  before: EntryPoints | undefined,
  after: EntryPoints | undefined,
): SeriesReleaseChanges | null {
  if (!before || !after || before.finals.length === 0) return null;
  const revised: ChangedMonth[] = [];
  const added: ChangedMonth[] = [];
  for (const point of after.finals) {
    const previous = before.finals.valueIn(point.month);
    if (previous === undefined) {
      added.push({ month: point.month, kind: "new", before: null, after: point.value, changePercent: null });
    } else if (previous !== point.value) {
      revised.push({
        month: point.month,
        kind: "revised",
        before: previous,
        after: point.value,
        changePercent: previous === 0 ? null : ((point.value - previous) / Math.abs(previous)) * 100,
      });
    }
  }
  // Months the new entry no longer holds (outside what it covers) are not changes: the
  // cache keeps only complete months, and a narrower window is not a revision.
  const months = [...revised.sort(byMonth), ...added.sort(byMonth)];
  if (months.length === 0) return null;
  return { key: after.key, code, currency: after.currency, unit: after.unit, months };
}

function byMonth(a: ChangedMonth, b: ChangedMonth): number {
  return a.month < b.month ? -1 : a.month > b.month ? 1 : 0;
}
