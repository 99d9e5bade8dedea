// Runs one streaming cell: computes its result, sets it, and computes again only when
// what it shows may have changed (its data keys for data cells, the catalog/limits for
// meta cells, a sign-in for cells that failed). A watchdog guarantees that a first
// result always arrives, so no cell stays on #BUSY!; cancelling stops everything.
import type { AuthStatus, Engine, Unsubscribe } from "../core/engine-api";
import { isPcdError, type PcdError } from "../core/errors";
import { callDurationBoundMs } from "../core/http/retry-policy";
import type { SeriesNeed } from "../core/series-need";
import { toCellError, withRetryNote, type CellError } from "./cell-errors";
import { sameResult } from "./same-result";

/**
 * data: re-run when the engine reports a change of a tracked key; meta: on catalog or
 * limits changes; catalog: on catalog changes only (not when only the allowances moved).
 */
export type CellWatch = "data" | "meta" | "catalog";

export interface CellJob<T> {
  watch: CellWatch;
  /**
   * Computes the cell; calls track(key, need) for every data key the result depends on
   * (with the months it reads), and stale(cause) when the result is cached data that a
   * failed fetch could not bring up to date (the cell keeps it and retries).
   */
  compute(track: (key: string, need?: SeriesNeed) => void, stale: (cause: PcdError) => void): Promise<T>;
  /**
   * The fast path: the result at once, when the engine can give it without a call or a
   * wait (Engine.serveNow), else undefined. It must not throw for a reason compute would
   * word (a throw is treated as undefined): compute runs then and says what is wrong. A
   * recalculation of cached cells then costs no promise, timer or watchdog per cell.
   */
  computeNow?(track: (key: string, need?: SeriesNeed) => void): T | undefined;
}

/** The part of CustomFunctions.StreamingInvocation a cell uses. */
export interface ResultSink<T, E> {
  setResult(value: T | E): void;
  onCanceled?: () => void;
}

export interface StreamingCellOptions<E> {
  engine: Engine;
  /** Builds the host's error object (CustomFunctions.Error in Excel). */
  toHostError(error: CellError): E;
  /** How long a first result may take before the cell shows a timeout; default from engine settings. */
  watchdogMs?: number;
  /** 0..1, for the retry jitter (default Math.random). */
  random?: () => number;
}

export interface StreamingCell {
  /** Computes again (coalesced with a computation in progress). */
  rerun(): void;
  cancel(): void;
}

/**
 * A cell that failed for a passing reason (network, timeout, server, rate, downtime) tries
 * again by itself: after these delays, or when the service says it is back. The engine
 * serves cached data and coalesces identical requests, so a retry costs at most the one
 * fetch that was missing.
 */
const FIRST_RETRY_MS = 60_000;
export const RETRY_DELAYS_MS: readonly number[] = [FIRST_RETRY_MS, 5 * 60_000, 15 * 60_000];
/** Retries timed by the service (back at / retry after) stop after this many in a row. */
const MAX_TIMED_RETRIES = 6;
const MAX_RETRY_DELAY_MS = 24 * 60 * 60_000;
/**
 * Kinds a later try may cure. "protocol" (an unreadable answer) is among them: the engine
 * does not ask again at once (the answer may have been charged), the cell's schedule does.
 */
const TRANSIENT_KINDS: ReadonlySet<string> = new Set([
  "network",
  "timeout",
  "server",
  "rate",
  "unavailable",
  "protocol",
]);
/**
 * Each wait is stretched by up to this share, at random, so that cells refused together
 * (a 429 for a whole recalculation) do not all come back in the same second.
 */
export const RETRY_JITTER = 0.25;

/** Margin on top of the engine's own call timeouts before the watchdog gives up. */
export const WATCHDOG_MARGIN_MS = 15_000;

/**
 * Worst case of one cell: a catalog call, a history call and a values call one after the
 * other, each with its retries (they start within the retry window, the last attempt may
 * take its whole timeout), plus one token renewal and the attempt it repeats (a fresh
 * token outlasts a cell's wait, so one renewal per cell is the most there can be).
 */
export function defaultWatchdogMs(engine: Engine): number {
  const { callTimeoutMs, historyTimeoutMs } = engine.getSettings();
  const attemptTimeouts = [callTimeoutMs, historyTimeoutMs, callTimeoutMs];
  const calls = attemptTimeouts.reduce((sum, timeout) => sum + callDurationBoundMs(timeout), 0);
  const renewal = callTimeoutMs + Math.max(...attemptTimeouts);
  return calls + renewal + WATCHDOG_MARGIN_MS;
}

export function startStreamingCell<T, E>(
  sink: ResultSink<T, E>,
  job: CellJob<T>,
  options: StreamingCellOptions<E>,
): StreamingCell {
  const { engine } = options;
  const random = options.random ?? Math.random;
  let tracked = new Set<string>();
  // Keys this cell holds in the engine's workbook list (what refresh-all refreshes).
  const held = new Map<string, Unsubscribe>();
  // Keys whose changes re-run this cell (one subscription per key, so a change reaches only
  // the cells that show it).
  const watched = new Map<string, Unsubscribe>();
  let metaWatch: Unsubscribe | undefined;
  // False once the cell stops listening for good (cancelled, or an input error no change can fix).
  let listening = true;
  const unsubscribes: Unsubscribe[] = [];
  let cancelled = false;
  let running = false;
  let dirty = false;
  let settled = false;
  let lastShown: Shown<T> | undefined;
  let lastError: CellError | undefined;
  let lastAuth: AuthStatus | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryAttempt = 0;
  /** Epoch ms the armed retry runs at (meaningful while retryTimer is set). */
  let retryAt: number | null = null;

  // Identical results are not set again, so Excel does not recalculate dependants for
  // nothing. Shaped results are shared per data version (src/functions/shape), so an
  // unchanged result is usually the very same object and the comparison stops at once.
  const showValue = (value: T): void => {
    settled = true;
    if (cancelled || (lastShown?.kind === "value" && sameResult(lastShown.value, value))) return;
    lastShown = { kind: "value", value };
    sink.setResult(value);
  };
  const showError = (error: CellError): void => {
    lastError = error;
    settled = true;
    if (
      cancelled ||
      (lastShown?.kind === "error" && lastShown.type === error.type && lastShown.message === error.message)
    )
      return;
    lastShown = { kind: "error", type: error.type, message: error.message };
    sink.setResult(options.toHostError(error));
  };

  const run = async (): Promise<void> => {
    if (cancelled) return;
    if (running) {
      dirty = true;
      return;
    }
    running = true;
    if (!settled) watchdog = startWatchdog();
    // Keys of this run join the watched set at once (a change during the run re-runs the
    // cell), and replace it when the run ends (keys it no longer uses stop mattering).
    const keysOfRun = new Map<string, SeriesNeed | undefined>();
    const track = (key: string, need?: SeriesNeed): void => {
      keysOfRun.set(key, need);
      tracked.add(key);
      watchKey(key);
    };
    let staleCause: PcdError | undefined;
    const stale = (cause: PcdError): void => {
      staleCause = cause;
    };
    try {
      const value = await job.compute(track, stale);
      lastError = undefined;
      showValue(value);
      // Cached data shown because a fetch failed: kept, and tried again on the schedule.
      if (staleCause) scheduleRetry(staleCause);
      else retryAttempt = 0;
    } catch (error) {
      // The cell says when it really tries again, not how often the engine retried.
      showError(withRetryNote(toCellError(error), scheduleRetry(error)));
      if (isPcdError(error) && error.kind === "input" && tracked.size === 0) stopWatching();
    } finally {
      clearWatchdog();
      tracked = new Set(keysOfRun.keys());
      holdOnly(keysOfRun);
      watchOnly(tracked);
      updateMetaWatch();
      running = false;
    }
    if (dirty && !cancelled) {
      dirty = false;
      rerun();
    }
  };

  /** Runs the job's fast path; true when it gave the result (shown, keys held and watched). */
  const runNow = (): boolean => {
    if (job.computeNow === undefined || cancelled || running) return false;
    const keysOfRun = new Map<string, SeriesNeed | undefined>();
    let value: T | undefined;
    try {
      value = job.computeNow((key, need) => keysOfRun.set(key, need));
    } catch {
      value = undefined;
    }
    if (value === undefined) return false;
    for (const key of keysOfRun.keys()) watchKey(key);
    lastError = undefined;
    retryAttempt = 0;
    showValue(value);
    tracked = new Set(keysOfRun.keys());
    holdOnly(keysOfRun);
    watchOnly(tracked);
    updateMetaWatch();
    return true;
  };

  const startWatchdog = (): ReturnType<typeof setTimeout> => {
    const ms = options.watchdogMs ?? safeWatchdogMs(engine);
    return setTimeout(() => {
      if (settled || cancelled) return;
      showError({
        type: "#N/A",
        message: `PCD timed out waiting for the service (no answer within ${Math.round(ms / 1000)} s); the cell updates when the data arrives.`,
      });
    }, ms);
  };

  /** Arms the next timed retry of a passing failure; returns when it runs (null: none). */
  const scheduleRetry = (error: unknown): number | null => {
    if (retryTimer !== undefined) return retryAt;
    if (cancelled || !isPcdError(error) || !TRANSIENT_KINDS.has(error.kind)) return null;
    const { until, retryAfterMs } = error.details;
    let delay: number | undefined;
    if (until !== undefined) delay = until - Date.now() + FIRST_RETRY_MS;
    else if (retryAfterMs !== undefined) delay = retryAfterMs;
    else delay = RETRY_DELAYS_MS[retryAttempt];
    if (delay === undefined || retryAttempt >= MAX_TIMED_RETRIES) return null;
    retryAttempt += 1;
    const wait = Math.min(Math.max(delay, FIRST_RETRY_MS), MAX_RETRY_DELAY_MS);
    const jittered = wait + Math.floor(wait * RETRY_JITTER * random());
    retryAt = Date.now() + jittered;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      rerun();
    }, jittered);
    return retryAt;
  };

  const clearWatchdog = (): void => {
    if (watchdog !== undefined) clearTimeout(watchdog);
    watchdog = undefined;
  };

  /** Holds exactly the keys of the latest run: a formula that now asks for another series lets the old one go. */
  const holdOnly = (keys: ReadonlyMap<string, SeriesNeed | undefined>): void => {
    if (cancelled) return;
    for (const [key, release] of held) {
      if (!keys.has(key)) {
        release();
        held.delete(key);
      }
    }
    for (const [key, need] of keys) if (!held.has(key)) held.set(key, engine.retainKey(key, need));
  };

  const watchKey = (key: string): void => {
    if (!listening || job.watch !== "data" || watched.has(key)) return;
    watched.set(key, engine.onKeyChange(key, rerun));
  };

  /** Watches exactly the keys of the latest run. */
  const watchOnly = (keys: ReadonlySet<string>): void => {
    for (const [key, unsubscribe] of watched) {
      if (!keys.has(key)) {
        unsubscribe();
        watched.delete(key);
      }
    }
  };

  /**
   * Meta and catalog cells always re-run on their changes. A data cell that failed before
   * knowing its key (e.g. an unknown code) may work once the catalog changes, so it listens
   * too, but only while it is in that state: data cells with a key wait for their key's
   * change, and do not cost anything per catalog or limits change.
   */
  const updateMetaWatch = (): void => {
    const wanted = listening && (job.watch !== "data" || (lastError !== undefined && tracked.size === 0));
    if (wanted && metaWatch === undefined) {
      metaWatch = job.watch === "meta" ? engine.onMetaChange(rerun) : engine.onCatalogChange(rerun);
    }
    if (!wanted && metaWatch !== undefined) {
      metaWatch();
      metaWatch = undefined;
    }
  };

  const releaseAll = (): void => {
    for (const release of held.values()) release();
    held.clear();
  };

  const stopWatching = (): void => {
    listening = false;
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    for (const unsubscribe of watched.values()) unsubscribe();
    watched.clear();
    metaWatch?.();
    metaWatch = undefined;
  };

  const rerun = (): void => {
    if (!runNow()) void run();
  };

  updateMetaWatch();
  lastAuth = safeAuthStatus(engine);
  unsubscribes.push(
    engine.onAuthChange((status) => {
      const previous = lastAuth;
      lastAuth = status;
      const newSession =
        status.signedIn &&
        (!previous?.signedIn ||
          previous.username !== status.username ||
          previous.environment !== status.environment);
      if (newSession) rerun();
    }),
  );

  sink.onCanceled = () => {
    cancelled = true;
    releaseAll();
    clearWatchdog();
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    stopWatching();
  };
  rerun();

  return {
    rerun,
    cancel: () => sink.onCanceled?.(),
  };
}

function safeWatchdogMs(engine: Engine): number {
  try {
    return defaultWatchdogMs(engine);
  } catch {
    return 5 * 60_000;
  }
}

function safeAuthStatus(engine: Engine): AuthStatus | undefined {
  try {
    return engine.authStatus();
  } catch {
    return undefined;
  }
}

/** What a cell shows now: a value, or an error by its type and message. */
type Shown<T> = { kind: "value"; value: T } | { kind: "error"; type: string; message: string };
