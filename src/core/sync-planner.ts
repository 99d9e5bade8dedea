// Decides, per request key, which calls bring a cached series up to date with the
// catalog. Pure: the same decision drives getSeries, planRefresh (cost preview) and
// refreshAll, so the preview the user approves is what the refresh spends.
import type { Month, SeriesInfo } from "./model";
import { monthIndex, monthsBetween } from "./months";

/** Series Values covers 13 months: a gap of up to 12 months since the cached last final fits. */
export const MAX_VALUES_GAP_MONTHS = 12;

export type SyncAction = "none" | "values" | "history" | "history+values";

export type SyncCause =
  | "fresh" // nothing to do
  | "new" // nothing cached yet
  | "revision" // series_hist_changed with a newer updated_at
  | "large_gap" // more months missing than Series Values returns
  | "new_months" // up to 12 new final months
  | "updated" // same months, newer updated_at (e.g. new forecasts)
  | "incomplete"; // an earlier History answer needed a Values call that failed

/** What the planner needs from a cache entry. */
export interface SyncState {
  lastFinal: Month | null;
  /** Series Info updated_at the entry was synced against. */
  catalogUpdatedAt: string | null;
  /** Set when History was merged but the Values call that had to follow it failed. */
  pendingValues?: boolean;
}

export type SyncInfo = Pick<SeriesInfo, "updatedAt" | "lastAvailableFinal" | "seriesHistChanged">;

export interface SyncContext {
  /** False once the service said the plan has no History (per environment + product). */
  historyAvailable: boolean;
  /**
   * True once a History answer of this product ended before last_available_final
   * (field notes): the plan then counts the Values call that will follow.
   */
  historyEndsEarly: boolean;
}

export interface SyncDecision {
  action: SyncAction;
  cause: SyncCause;
  /** For the refresh preview and logs. */
  reason: string;
}

function isAfter(a: string, b: string): boolean {
  return a > b; // "YYYY-MM-DD" strings order like dates
}

function fullLoad(cause: SyncCause, reason: string, context: SyncContext): SyncDecision {
  if (!context.historyAvailable) {
    return {
      action: "values",
      cause,
      reason: `${reason}; the plan has no History, so only the last 13 months`,
    };
  }
  return { action: context.historyEndsEarly ? "history+values" : "history", cause, reason };
}

export function planSync(entry: SyncState | undefined, info: SyncInfo, context: SyncContext): SyncDecision {
  if (!entry || entry.lastFinal === null) return fullLoad("new", "not cached yet", context);

  const revised =
    info.seriesHistChanged === true &&
    info.updatedAt !== null &&
    (entry.catalogUpdatedAt === null || isAfter(info.updatedAt, entry.catalogUpdatedAt));
  if (revised) return fullLoad("revision", `history revised (updated ${info.updatedAt})`, context);

  if (entry.pendingValues) {
    return {
      action: "values",
      cause: "incomplete",
      reason: "the last months are missing after a failed call",
    };
  }

  const behind =
    info.lastAvailableFinal === null
      ? 0
      : Math.max(0, monthsBetween(entry.lastFinal, info.lastAvailableFinal));
  if (behind === 0 && entry.catalogUpdatedAt === info.updatedAt) {
    return { action: "none", cause: "fresh", reason: "up to date" };
  }
  if (behind > MAX_VALUES_GAP_MONTHS) {
    return fullLoad("large_gap", `${behind} months behind`, context);
  }
  if (behind > 0) {
    return {
      action: "values",
      cause: "new_months",
      reason: behind === 1 ? "1 new month" : `${behind} new months`,
    };
  }
  return { action: "values", cause: "updated", reason: `updated ${info.updatedAt ?? "(date unknown)"}` };
}

/** Data requests an action spends per key (each call draws one request per code). */
export function requestsFor(action: SyncAction): number {
  return action === "none" ? 0 : action === "history+values" ? 2 : 1;
}

/** True when a History answer already reaches the catalog's last final month. */
export function reaches(lastFinal: Month | null, lastAvailableFinal: Month | null): boolean {
  if (lastAvailableFinal === null) return lastFinal !== null;
  return lastFinal !== null && monthIndex(lastFinal) >= monthIndex(lastAvailableFinal);
}
