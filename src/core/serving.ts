// Whether a cached entry may answer a cell, judged on the months the cell reads (its
// need). Fresh: the cache holds them for the catalog's current state. Stale: a fetch
// failed, and the cache holds them as a complete earlier release had them (the cell keeps
// showing that release and retries). Missing: the cache lacks them; in particular a History
// part whose Series Values call never succeeded can never stand in for the latest months,
// so the cell says what could not be fetched instead of showing an old month as the latest.
import type { CacheEntry } from "./cache";
import { coveredEnd, coveredStart, coversSpan } from "./coverage";
import { PcdError } from "./errors";
import type { SeriesInfo } from "./model";
import { monthIndex, monthOfIndex } from "./months";
import { neededParts, windowStart, type SeriesNeed } from "./series-need";
import { planSync, type SyncContext } from "./sync-planner";
import { lastSentence, truncate } from "./truncate";

export type Serving = { kind: "fresh" } | { kind: "stale" } | { kind: "missing"; what: string };

export function judgeServing(
  entry: CacheEntry | undefined,
  info: SeriesInfo,
  need: SeriesNeed,
  context: SyncContext,
): Serving {
  if (!entry) return { kind: "missing", what: "the data" };
  const parts = neededParts(need, info.lastAvailableFinal);
  const start = info.lastAvailableFinal === null ? null : windowStart(info.lastAvailableFinal);
  const from = need.from === null || need.from === "latest" ? null : monthIndex(need.from);
  const to = need.to === null ? Infinity : monthIndex(need.to);

  // Months before the window on a plan without History: only what Series Values brought
  // over the months can be shown; an explicit month before that is not to be had.
  const withoutHistory = parts.history && !context.historyAvailable;
  const earliest = coveredStart(entry.covered);
  if (withoutHistory && from !== null && (earliest === null || from < earliest)) {
    return {
      kind: "missing",
      what: `the months before ${earliest === null ? "the window" : monthOfIndex(earliest)}`,
    };
  }

  if (planSync(entry, info, need, context).action === "none") return { kind: "fresh" };

  if (parts.window && entry.valuesAsOf === null) return { kind: "missing", what: "the latest months" };
  const end = coveredEnd(entry.covered);
  if (end === null) return { kind: "missing", what: "the data" };
  if (parts.history && !withoutHistory && start !== null) {
    const first = from ?? -Infinity;
    if (!coversSpan(entry.covered, first, Math.min(to, start - 1, end))) {
      return { kind: "missing", what: `the months before ${monthOfIndex(start)}` };
    }
  }
  if (from !== null && from > end) {
    // Only months after the cached last final: a forecast of that release, or nothing.
    const month = monthOfIndex(from);
    if (!entry.forecasts.has(month)) return { kind: "missing", what: month };
  }
  return { kind: "stale" };
}

/** Excel shows at most 255 characters of a cell's message. */
const MAX_MESSAGE_LENGTH = 255;

/**
 * The cause, and what it kept from the cell: "<cause>: the latest months of X could not be
 * fetched." A long cause is shortened in its middle so that what is missing stays visible,
 * except a team gateway's refusal for the member's budget: the gateway's text names the dataset
 * and ends with what to do (ask its administrator), so it is kept whole where it fits, else
 * shortened in its middle with its last sentence kept, and what is missing is added only where
 * both fit.
 */
export function missingError(cause: PcdError, code: string, what: string): PcdError {
  const said = cause.message.trim().replace(/\.$/, "");
  const tail = `: ${what} of ${code} could not be fetched.`;
  if (cause.details.memberBudget === true && said.length + tail.length > MAX_MESSAGE_LENGTH) {
    const whole = cause.message.trim();
    return new PcdError(
      cause.kind,
      truncate(whole, MAX_MESSAGE_LENGTH, lastSentence(whole, MAX_MESSAGE_LENGTH)),
      cause.details,
    );
  }
  return new PcdError(cause.kind, truncate(`${said}${tail}`, MAX_MESSAGE_LENGTH, tail), cause.details);
}
