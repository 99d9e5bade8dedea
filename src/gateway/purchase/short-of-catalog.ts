// Whether a bought Series Values record is short of the catalog: its last final month is before
// the catalog's last_available_final, or it has no final value, as while the service is still
// publishing a release (its catalog lists the new month before its data holds it). Members'
// engines refuse such a record as the series' window and ask again later (core/series-sync.ts,
// shortOfCatalog); the gateway must not keep it as the series' current answer either.
import { toMonthIndex } from "../../core/http/normalise";

/**
 * True when the record's final values end before `lastAvailableFinal` (a date of the catalog);
 * false when they reach it, or when the catalog gives no month to compare with.
 */
export function shortOfCatalog(record: unknown, lastAvailableFinal: string | null | undefined): boolean {
  const expected = toMonthIndex(lastAvailableFinal);
  if (expected === null) return false;
  const last = lastFinalMonth(record);
  return last === null || last < expected;
}

/** The index of the latest month among the record's final values that read as dates; null: none. */
function lastFinalMonth(record: unknown): number | null {
  const finals = (record as { series_final_values?: unknown } | null)?.series_final_values;
  if (!Array.isArray(finals)) return null;
  let last: number | null = null;
  for (const point of finals) {
    const month = toMonthIndex((point as { date?: unknown } | null)?.date);
    if (month !== null && (last === null || month > last)) last = month;
  }
  return last;
}
