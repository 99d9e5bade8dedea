// Runs one streaming cell: computes its result, sets it, and computes again only when
// what it shows may have changed (its data keys for data cells, the catalog/limits for
// meta cells, a sign-in for cells that failed). A watchdog guarantees that a first
// result always arrives, so no cell stays on #BUSY!; cancelling stops everything.
import type { Engine, Unsubscribe } from "../core/engine-api";
import { isPcdError, type PcdError } from "../core/errors";
import { callDurationBoundMs } from "../core/http/retry-policy";
import type { SeriesNeed } from "../core/series-need";
import { unwatchSessions, watchSessions, type SessionWatcher } from "./auth-watch";
import { toCellError, withRetryNote, type CellError } from "./cell-errors";
import { KeySlots } from "./key-slots";
import { attemptOnReturnAt, isPassingFailure, nextAttemptAt } from "./retry-schedule";
import { unwaitForService, waitForService, type RetryWaiter } from "./service-back-watch";
import { sameResult } from "./same-result";

/**
 * data: re-run when the engine reports a change of a tracked key; meta: on catalog or
 * limits changes; catalog: on catalog changes only (not when only the allowances moved).
 */
export type CellWatch = "data" | "meta" | "catalog";

/** What a job tells the run of its cell while it computes (CellJob.compute). */
export interface CellRun {
  /** A data key the result depends on, with the months it reads. */
  track(key: string, need?: SeriesNeed): void;
  /** The result is cached data a failed fetch could not bring up to date (the cell keeps it and retries). */
  stale(cause: PcdError): void;
}

export interface CellJob<T> {
  watch: CellWatch;
  /** Computes the cell, telling the run every key it reads and whether its data is stale. */
  compute(run: CellRun): Promise<T>;
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
  /**
   * The clock the retry schedule reads: the engine's (Engine.now), so the time a cell says it
   * tries again is on the clock the engine judges downtimes and releases by.
   */
  now: () => number;
}

export interface StreamingCell {
  /** Computes again (coalesced with a computation in progress). */
  rerun(): void;
  cancel(): void;
}

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
  const cell = new StreamingCellRun(sink, job, options);
  cell.start();
  return cell;
}

/**
 * The keys the fast path of the cell being computed tracks. computeNow is synchronous, so one
 * collector serves every cell without a track function per cell; it is saved and restored
 * around each call, so a computeNow that started another cell's would still be right.
 */
let nowKeys: KeySlots<SeriesNeed | undefined> | undefined;

function trackNow(key: string, need?: SeriesNeed): void {
  nowKeys?.set(key, need);
}

/**
 * One cell's life. A recalculation re-creates every cell (tens of thousands), so its
 * behaviour lives in methods shared by all cells: a cell allocates its state, the function
 * the sink calls when Excel cancels it and, once it watches anything, the one listener it
 * gives the engine. Timers get the cell as an argument instead of a closure.
 */
class StreamingCellRun<T, E> implements StreamingCell, SessionWatcher, RetryWaiter {
  private readonly engine: Engine;
  /**
   * How many keys the latest finished run tracked (the keys are in held and watched). Only
   * the count is kept: the run's map of keys and months was the same again for every cell.
   */
  private lastKeyCount = 0;
  // Keys this cell holds in the engine's workbook list (what refresh-all refreshes).
  private readonly held = new KeySlots<Unsubscribe>();
  // Keys whose changes re-run this cell (one subscription per key, so a change reaches only
  // the cells that show it).
  private readonly watched = new KeySlots<Unsubscribe>();
  private metaWatch: Unsubscribe | undefined;
  /** The listener given to the engine (key, meta and catalog changes); made on first use. */
  private rerunListener: (() => void) | undefined;
  // False once the cell stops listening for good (cancelled, or an input error no change can fix).
  private listening = true;
  private cancelled = false;
  private running = false;
  private dirty = false;
  private settled = false;
  private lastShown: Shown<T> | undefined;
  private lastError: CellError | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryAttempt = 0;
  /** Epoch ms the armed retry runs at (meaningful while retryTimer is set). */
  private retryAt: number | null = null;
  /** Registered to try again when the engine sees the service answer again. */
  private waitingForReturn = false;
  /** Epoch ms the latest computation started (on the injected clock). */
  private lastRunAt = 0;

  constructor(
    private readonly sink: ResultSink<T, E>,
    private readonly job: CellJob<T>,
    private readonly options: StreamingCellOptions<E>,
  ) {
    this.engine = options.engine;
  }

  start(): void {
    this.updateMetaWatch();
    watchSessions(this.engine, this);
    this.sink.onCanceled = () => this.stop();
    this.rerun();
  }

  rerun(): void {
    if (!this.runNow()) void this.run();
  }

  cancel(): void {
    this.sink.onCanceled?.();
  }

  private stop(): void {
    this.cancelled = true;
    this.releaseAll();
    this.clearWatchdog();
    this.clearRetry();
    this.stopWatching();
  }

  // Identical results are not set again, so Excel does not recalculate dependants for
  // nothing. Shaped results are shared per data version (src/functions/shape), so an
  // unchanged result is usually the very same object and the comparison stops at once.
  private showValue(value: T): void {
    this.settled = true;
    const shown = this.lastShown;
    if (this.cancelled || (shown?.kind === "value" && sameResult(shown.value, value))) return;
    this.lastShown = { kind: "value", value };
    this.sink.setResult(value);
  }

  private showError(error: CellError): void {
    this.lastError = error;
    this.settled = true;
    const shown = this.lastShown;
    if (
      this.cancelled ||
      (shown?.kind === "error" && shown.type === error.type && shown.message === error.message)
    )
      return;
    this.lastShown = { kind: "error", type: error.type, message: error.message };
    this.sink.setResult(this.options.toHostError(error));
  }

  private async run(): Promise<void> {
    if (this.cancelled) return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = true;
    this.lastRunAt = this.options.now();
    if (!this.settled) this.watchdog = this.startWatchdog();
    // Keys of this run are watched at once (a change during the run re-runs the cell), and
    // replace the watched set when the run ends (keys it no longer uses stop mattering). Each
    // run records into its own object: a late call from an earlier run lands in that run's.
    const run = new RunRecord(this);
    const keysOfRun = run.keys;
    try {
      const value = await this.job.compute(run);
      this.lastError = undefined;
      this.showValue(value);
      // Cached data shown because a fetch failed: kept, and tried again on the schedule.
      if (run.staleCause) this.scheduleRetry(run.staleCause);
      else {
        this.retryAttempt = 0;
        this.clearRetry();
      }
    } catch (error) {
      // The cell says when it really tries again, not how often the engine retried.
      this.showError(withRetryNote(toCellError(error), this.scheduleRetry(error)));
      // Keyless so far (neither the last run nor this one tracked a key): nothing can fix it.
      const keyless = this.lastKeyCount === 0 && keysOfRun.size === 0;
      if (isPcdError(error) && error.kind === "input" && keyless) this.stopWatching();
    } finally {
      this.clearWatchdog();
      this.endRun(keysOfRun);
      this.running = false;
    }
    if (this.dirty && !this.cancelled) {
      this.dirty = false;
      this.rerun();
    }
  }

  /** Runs the job's fast path; true when it gave the result (shown, keys held and watched). */
  private runNow(): boolean {
    if (this.job.computeNow === undefined || this.cancelled || this.running) return false;
    const keysOfRun = new KeySlots<SeriesNeed | undefined>();
    const outer = nowKeys;
    nowKeys = keysOfRun;
    let value: T | undefined;
    try {
      value = this.job.computeNow(trackNow);
    } catch {
      value = undefined;
    } finally {
      nowKeys = outer;
    }
    if (value === undefined) return false;
    keysOfRun.forEach((_need, key) => this.watchKey(key));
    this.lastError = undefined;
    this.retryAttempt = 0;
    this.clearRetry();
    this.showValue(value);
    this.endRun(keysOfRun);
    return true;
  }

  /** The keys of a finished run become the ones the cell holds and watches. */
  private endRun(keysOfRun: KeySlots<SeriesNeed | undefined>): void {
    this.lastKeyCount = keysOfRun.size;
    this.holdOnly(keysOfRun);
    this.watchOnly(keysOfRun);
    this.updateMetaWatch();
  }

  private startWatchdog(): ReturnType<typeof setTimeout> {
    const ms = this.options.watchdogMs ?? safeWatchdogMs(this.engine);
    return setTimeout(StreamingCellRun.onWatchdog, ms, this, ms);
  }

  private static onWatchdog(this: void, cell: StreamingCellRun<unknown, unknown>, ms: number): void {
    if (cell.settled || cell.cancelled) return;
    cell.showError({
      type: "#N/A",
      message: `PCD timed out waiting for the service (no answer within ${Math.round(ms / 1000)} s); the cell updates when the data arrives.`,
    });
  }

  /**
   * Arms the next timed retry of a passing failure; returns when it runs (null: none). The
   * cell also waits for the engine to see the service answer again, which runs the retry
   * early; either way the attempt counts, so the schedule still backs off.
   */
  private scheduleRetry(error: unknown): number | null {
    if (this.retryTimer !== undefined) return this.retryAt;
    if (this.cancelled || !isPcdError(error) || !isPassingFailure(error.kind)) return null;
    const now = this.options.now();
    const draw = (this.options.random ?? Math.random)();
    const at = nextAttemptAt(error.details, this.retryAttempt, now, draw);
    if (at === null) {
      // The schedule ran out: the cell still tries once when the service answers again.
      this.waitForReturn();
      return null;
    }
    this.retryAttempt += 1;
    this.retryAt = at;
    this.retryTimer = setTimeout(StreamingCellRun.onRetryTimer, at - now, this);
    this.waitForReturn();
    return at;
  }

  private static onRetryTimer(this: void, cell: StreamingCellRun<unknown, unknown>): void {
    cell.retryTimer = undefined;
    cell.stopWaitingForReturn();
    cell.rerun();
  }

  /**
   * Called by the registry (which has let the cell go) when the service answers again: the
   * armed retry, or the one the exhausted schedule no longer gives, runs now.
   */
  retryNow(): void {
    this.waitingForReturn = false;
    if (this.cancelled) return;
    if (this.retryTimer !== undefined) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.rerun();
      return;
    }
    // The schedule ran out: one try per longest step at most.
    const now = this.options.now();
    const at = attemptOnReturnAt(this.lastRunAt);
    if (at <= now) {
      this.rerun();
      return;
    }
    this.retryAt = at;
    this.retryTimer = setTimeout(StreamingCellRun.onRetryTimer, at - now, this);
  }

  private waitForReturn(): void {
    if (this.waitingForReturn) return;
    this.waitingForReturn = true;
    waitForService(this.engine, this);
  }

  private stopWaitingForReturn(): void {
    if (!this.waitingForReturn) return;
    this.waitingForReturn = false;
    unwaitForService(this.engine, this);
  }

  private clearRetry(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.stopWaitingForReturn();
  }

  private clearWatchdog(): void {
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  /** Holds exactly the keys of the latest run: a formula that now asks for another series lets the old one go. */
  private holdOnly(keys: KeySlots<SeriesNeed | undefined>): void {
    if (this.cancelled) return;
    const { held } = this;
    held.forEach((release, key) => {
      if (!keys.has(key)) {
        release();
        held.delete(key);
      }
    });
    keys.forEach((need, key) => {
      if (!held.has(key)) held.set(key, this.engine.retainKey(key, need));
    });
  }

  /** Called by the run's record (RunRecord.track). */
  watchKey(key: string): void {
    if (!this.listening || this.job.watch !== "data" || this.watched.has(key)) return;
    this.watched.set(key, this.engine.onKeyChange(key, this.listener()));
  }

  /** Watches exactly the keys of the latest run. */
  private watchOnly(keys: KeySlots<SeriesNeed | undefined>): void {
    const { watched } = this;
    watched.forEach((unsubscribe, key) => {
      if (!keys.has(key)) {
        unsubscribe();
        watched.delete(key);
      }
    });
  }

  /**
   * Meta and catalog cells always re-run on their changes. A data cell that failed before
   * knowing its key (e.g. an unknown code) may work once the catalog changes, so it listens
   * too, but only while it is in that state: data cells with a key wait for their key's
   * change, and do not cost anything per catalog or limits change.
   */
  private updateMetaWatch(): void {
    const { watch } = this.job;
    const wanted =
      this.listening && (watch !== "data" || (this.lastError !== undefined && this.lastKeyCount === 0));
    if (wanted && this.metaWatch === undefined) {
      this.metaWatch =
        watch === "meta"
          ? this.engine.onMetaChange(this.listener())
          : this.engine.onCatalogChange(this.listener());
    }
    if (!wanted && this.metaWatch !== undefined) {
      this.metaWatch();
      this.metaWatch = undefined;
    }
  }

  /** The one function this cell gives the engine's change events (the engine calls it unbound). */
  private listener(): () => void {
    return (this.rerunListener ??= () => this.rerun());
  }

  private releaseAll(): void {
    this.held.forEach((release) => release());
    this.held.clear();
  }

  private stopWatching(): void {
    this.listening = false;
    unwatchSessions(this.engine, this);
    this.watched.forEach((unsubscribe) => unsubscribe());
    this.watched.clear();
    this.metaWatch?.();
    this.metaWatch = undefined;
  }
}

/**
 * One run's record: the keys it tracked and why its data is stale. An object with methods,
 * not two closures per run: every cell of a cold workbook is in a run at once, for the
 * seconds its data takes.
 */
class RunRecord implements CellRun {
  readonly keys = new KeySlots<SeriesNeed | undefined>();
  staleCause: PcdError | undefined;

  constructor(private readonly cell: { watchKey(key: string): void }) {}

  track(key: string, need?: SeriesNeed): void {
    this.keys.set(key, need);
    this.cell.watchKey(key);
  }

  stale(cause: PcdError): void {
    this.staleCause = cause;
  }
}

function safeWatchdogMs(engine: Engine): number {
  try {
    return defaultWatchdogMs(engine);
  } catch {
    return 5 * 60_000;
  }
}

/** What a cell shows now: a value, or an error by its type and message. */
type Shown<T> = { kind: "value"; value: T } | { kind: "error"; type: string; message: string };
