// When and how long to wait before another attempt: exponential backoff with full
// jitter (random in [0, min(cap, base * 2^attempt)]), which spreads a crowd of
// retrying calls instead of sending them back in lockstep.
import { realScheduler, type Scheduler } from "../scheduler";

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * A Retry-After longer than this is not waited for: the call fails at once so cells
   * fall back to cached data instead of hanging (e.g. a 503 "back in 16 hours").
   */
  maxRetryAfterMs: number;
  /**
   * No retry starts later than this after the call began (its wait included): a call
   * that keeps failing slowly (an attempt that times out after 130 s, a 503 with a long
   * Retry-After) gives up instead of stacking attempts, so a call always ends within
   * callDurationBoundMs and a cell's watchdog can cover it. The one repeat attempt after
   * a 401 and its token renewal are not retries: the watchdog counts them separately.
   */
  retryWindowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  // One full Retry-After wait fits; the quick retries (backoff of at most 7.5 s in all,
  // refused connections) all fit.
  retryWindowMs: 60_000,
});

/**
 * Longest one call takes from its start, not counting a 401 renewal: its last retry
 * starts within the retry window, and that attempt may then take its whole timeout.
 */
export function callDurationBoundMs(
  attemptTimeoutMs: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  return policy.retryWindowMs + attemptTimeoutMs;
}

/** Full-jitter delay before retry number `attempt + 1` (attempt counts from 0). */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * Waits `ms` on the scheduler's time (default: real timers), or rejects with the signal's
 * reason as soon as the caller aborts.
 */
export function abortableSleep(
  ms: number,
  signal?: AbortSignal,
  scheduler: Scheduler = realScheduler,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = scheduler.after(ms, () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
