// Decides, per request key, which calls bring a cached series up to what its cells need.
// Pure: the same decision drives getSeries, planRefresh (cost preview) and refreshAll, so
// the preview the user approves is what the refresh spends.
//
// The service sells a series in two parts (docs/service.md): Series Values (the 13-month
// window and the forecasts) and Series Values History (the months before the window; on
// the real service it ends right before the window). A key is bought by need: History only
// when some cell reads months before the window, Series Values only when some cell reads
// the window or forecasts, and never a part the cache already holds for the current
// catalog state.
import type { CacheEntry } from "./cache";
import { coveredEnd, coveredStart, coversSpan } from "./coverage";
import type { Month, SeriesInfo } from "./model";
import { monthIndex } from "./months";
import { neededParts, windowStart, type SeriesNeed } from "./series-need";

/** Series Values covers 13 months: a gap of up to 12 months since the cached last final fits. */
export const MAX_VALUES_GAP_MONTHS = 12;

export type SyncAction = "none" | "values" | "history" | "history+values";

export type SyncCause =
  | "fresh" // nothing to do
  | "new" // nothing cached yet
  | "revision" // series_hist_changed with a newer updated_at
  | "large_gap" // more months missing than Series Values returns
  | "older_months" // a cell reads months before the window that are not cached
  | "new_months" // up to 12 new final months
  | "updated" // same months, newer updated_at (e.g. new forecasts)
  | "incomplete"; // History is cached but the window never arrived (a call failed)

/** What the planner needs from a cache entry. */
export type SyncState = Pick<
  CacheEntry,
  "lastFinal" | "catalogUpdatedAt" | "covered" | "valuesAsOf" | "historyAsOf" | "historyRevisedAt"
>;

export type SyncInfo = Pick<SeriesInfo, "updatedAt" | "lastAvailableFinal" | "seriesHistChanged">;

export interface SyncContext {
  /** False once the service said the plan has no History (per environment + product). */
  historyAvailable: boolean;
  /**
   * True once a History answer of this product reached last_available_final (the
   * service description's letter): History alone then serves the window too. The real
   * service's History ends before the window, which is what PCD assumes until then.
   */
  historyReachesLatest: boolean;
}

export interface SyncDecision {
  action: SyncAction;
  cause: SyncCause;
  /** For the refresh preview and logs. */
  reason: string;
}

const FRESH: SyncDecision = { action: "none", cause: "fresh", reason: "up to date" };

/** True when the catalog says History was revised after the entry's last answer. */
export function isRevised(entry: Pick<CacheEntry, "catalogUpdatedAt">, info: SyncInfo): boolean {
  return (
    info.seriesHistChanged === true &&
    info.updatedAt !== null &&
    (entry.catalogUpdatedAt === null || info.updatedAt > entry.catalogUpdatedAt)
  );
}

/**
 * The catalog's updated_at when it says the history was revised after the cached History
 * was bought (series_hist_changed), else null.
 */
export function historyRevisedSince(entry: Pick<CacheEntry, "historyAsOf">, info: SyncInfo): string | null {
  return entry.historyAsOf !== null &&
    info.seriesHistChanged === true &&
    info.updatedAt !== null &&
    info.updatedAt > entry.historyAsOf
    ? info.updatedAt
    : null;
}

/** A revision recorded on the entry that its History still predates. */
export function historyStillRevised(entry: Pick<CacheEntry, "historyAsOf" | "historyRevisedAt">): boolean {
  const revisedAt = entry.historyRevisedAt ?? null;
  return revisedAt !== null && entry.historyAsOf !== null && entry.historyAsOf < revisedAt;
}

/** The first month index a need reads before the window (-Infinity = the series' first). */
function firstNeeded(need: SeriesNeed): number {
  return need.from === null || need.from === "latest" ? -Infinity : monthIndex(need.from);
}

/**
 * What an entry records of the catalog record its Series Values answer was bought against.
 * A record without `updated_at` is stamped with a text no date equals: the answer still
 * counts as the window's, and the record's `last_available_final` (or a date appearing)
 * says when it moved on. Without the stamp such a key would be bought on every ask.
 */
export const UNDATED_CATALOG = "undated";

export function catalogStamp(info: Pick<SyncInfo, "updatedAt">): string {
  return info.updatedAt ?? UNDATED_CATALOG;
}

/** True when the window (and forecasts) are cached as of the catalog's current state. */
export function windowFresh(entry: SyncState, info: SyncInfo): boolean {
  if (entry.valuesAsOf !== catalogStamp(info)) return false;
  if (info.lastAvailableFinal === null) return true;
  const start = windowStart(info.lastAvailableFinal);
  return coversSpan(entry.covered, start, monthIndex(info.lastAvailableFinal));
}

/** True when the months a need reads before the window are cached (revisions aside). */
export function historyHeld(entry: SyncState, info: SyncInfo, need: SeriesNeed): boolean {
  if (info.lastAvailableFinal === null) return true;
  const before = windowStart(info.lastAvailableFinal) - 1;
  const to = need.to === null ? before : Math.min(monthIndex(need.to), before);
  return coversSpan(entry.covered, firstNeeded(need), to);
}

function plural(count: number, one: string): string {
  return count === 1 ? `1 ${one}` : `${count} ${one}s`;
}

function actionOf(history: boolean, values: boolean, context: SyncContext): SyncAction {
  // The real service's History never holds the window, so a key needing both buys both
  // (in parallel); a service whose History reached the latest month gets History alone.
  if (history && values) return context.historyReachesLatest ? "history" : "history+values";
  if (history) return "history";
  return values ? "values" : "none";
}

export function planSync(
  entry: SyncState | undefined,
  info: SyncInfo,
  need: SeriesNeed,
  context: SyncContext,
): SyncDecision {
  const parts = neededParts(need, info.lastAvailableFinal);
  const historyWanted = parts.history && context.historyAvailable;
  const noHistoryNote = parts.history && !context.historyAvailable ? "; the plan has no History" : "";

  if (!entry) {
    const action = actionOf(historyWanted, parts.window, context);
    return { action, cause: "new", reason: `not cached yet${noHistoryNote}` };
  }

  // A revision makes cached History stale: cells reading months before the window buy it
  // again (the window is bought again anyway, its updated_at moved). One seen before and not
  // bought yet stays due after a later release has cleared the catalog's flag.
  const revised = isRevised(entry, info);
  const pendingRevision = historyStillRevised(entry) ? (entry.historyRevisedAt ?? null) : null;
  const historyRevised = historyRevisedSince(entry, info) !== null || pendingRevision !== null;
  const needHistory = historyWanted && (revised || historyRevised || !historyHeld(entry, info, need));
  const needValues = parts.window && !windowFresh(entry, info);
  if (!needHistory && !needValues) return FRESH;
  const action = actionOf(needHistory, needValues, context);
  if (revised || (needHistory && pendingRevision !== null)) {
    const updated = revised ? (info.updatedAt ?? "(date unknown)") : pendingRevision;
    return { action, cause: "revision", reason: `history revised (updated ${updated})${noHistoryNote}` };
  }

  const behind =
    info.lastAvailableFinal === null || entry.lastFinal === null
      ? 0
      : Math.max(0, monthIndex(info.lastAvailableFinal) - monthIndex(entry.lastFinal));
  if (needHistory) {
    const start = coveredStart(entry.covered);
    if (start === -Infinity && behind > MAX_VALUES_GAP_MONTHS)
      return { action, cause: "large_gap", reason: `${behind} months behind` };
    return { action, cause: "older_months", reason: olderMonthsReason(info.lastAvailableFinal) };
  }
  if (entry.valuesAsOf === null) {
    return { action, cause: "incomplete", reason: "the latest months are missing after a failed call" };
  }
  if (behind > 0) return { action, cause: "new_months", reason: plural(behind, "new month") };
  const end = coveredEnd(entry.covered);
  if (end !== null && info.lastAvailableFinal !== null && end < monthIndex(info.lastAvailableFinal)) {
    return { action, cause: "new_months", reason: "new months" };
  }
  return { action, cause: "updated", reason: `updated ${info.updatedAt ?? "(date unknown)"}` };
}

function olderMonthsReason(lastAvailableFinal: Month | null): string {
  if (lastAvailableFinal === null) return "older months not cached yet";
  const start = windowStart(lastAvailableFinal);
  const year = Math.floor(start / 12);
  const month = (start % 12) + 1;
  return `months before ${year}-${String(month).padStart(2, "0")} not cached yet`;
}

/** Data requests an action spends per key (each call draws one request per code). */
export function requestsFor(action: SyncAction): number {
  return action === "none" ? 0 : action === "history+values" ? 2 : 1;
}

/** True when an answer's last final reaches the catalog's last final month. */
export function reaches(lastFinal: Month | null, lastAvailableFinal: Month | null): boolean {
  if (lastAvailableFinal === null) return lastFinal !== null;
  return lastFinal !== null && monthIndex(lastFinal) >= monthIndex(lastAvailableFinal);
}
