// When a cell that failed for a passing reason tries again. A pure function of the failure,
// the timed attempts so far, the clock's now and a random draw: the cell reads its clock
// (the engine's) and arms the one timer the schedule gives, so the schedule itself is
// tested as a table (test/functions/retry-schedule.test.ts).
//
// A cell retries after these delays, or when the service says it is back. The engine serves
// cached data and coalesces identical requests, so a retry costs at most the one fetch that
// was missing.
import type { PcdErrorDetails, PcdErrorKind } from "../core/errors";

export const FIRST_RETRY_MS = 60_000;
export const RETRY_DELAYS_MS: readonly number[] = [FIRST_RETRY_MS, 5 * 60_000, 15 * 60_000];
/** The schedule's longest step: the most a jitter spreads, and the least between tries after it ran out. */
export const LONGEST_STEP_MS = 15 * 60_000;
/** Retries timed by the service (back at / retry after) stop after this many in a row. */
export const MAX_TIMED_RETRIES = 6;
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60_000;
/**
 * Each wait is stretched by up to this share, at random, so that cells refused together
 * (a 429 for a whole recalculation) do not all come back in the same second.
 */
export const RETRY_JITTER = 0.25;

/**
 * Kinds a later try may cure. "protocol" (an unreadable answer) is among them: the engine
 * does not ask again at once (the answer may have been charged), the cell's schedule does.
 */
const PASSING_KINDS: ReadonlySet<PcdErrorKind> = new Set<PcdErrorKind>([
  "network",
  "timeout",
  "server",
  "rate",
  "unavailable",
  "protocol",
]);

/** True for a failure a later try may cure. */
export function isPassingFailure(kind: PcdErrorKind): boolean {
  return PASSING_KINDS.has(kind);
}

/** What the service said about when to come back: a downtime's end (until), a Retry-After. */
export type FailureTiming = Pick<PcdErrorDetails, "until" | "retryAfterMs">;

/**
 * When the next timed attempt is due, in epoch ms on the clock `now` was read from, or null
 * when the schedule has run out (the cell then tries only when the service answers again).
 * `attempts`: timed attempts already armed since the last success; `draw`: 0..1, the jitter.
 * A downtime is retried a minute after it ends; a Retry-After as asked; otherwise after 1, 5
 * and 15 minutes. No wait is under a minute or over a day.
 */
export function nextAttemptAt(
  timing: FailureTiming,
  attempts: number,
  now: number,
  draw: number,
): number | null {
  let delay: number | undefined;
  if (timing.until !== undefined) delay = timing.until - now + FIRST_RETRY_MS;
  else if (timing.retryAfterMs !== undefined) delay = timing.retryAfterMs;
  else delay = RETRY_DELAYS_MS[attempts];
  if (delay === undefined || attempts >= MAX_TIMED_RETRIES) return null;
  const wait = Math.min(Math.max(delay, FIRST_RETRY_MS), MAX_RETRY_DELAY_MS);
  // The spread is a share of the schedule's longest step at most: a downtime that ends in
  // 16 hours must not send its cells back up to 4 hours after it ended.
  const spread = Math.min(wait, LONGEST_STEP_MS) * RETRY_JITTER;
  return now + wait + Math.floor(spread * draw);
}

/**
 * Once the schedule ran out, the service's return runs an attempt at most once per longest
 * step, however often the service comes and goes (a series the service keeps failing must
 * not be asked for each time): when that attempt is due, given when the last one started.
 */
export function attemptOnReturnAt(lastAttemptAt: number): number {
  return lastAttemptAt + LONGEST_STEP_MS;
}
