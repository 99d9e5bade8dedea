// The programmatic runner (what `npm run recalc` does): builds the same engine the add-in
// uses on Node (fetch, fake-indexeddb), signs in, optionally refreshes, and evaluates the
// formulas through the real custom functions for one or more passes.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { createEngine, createIdbStorage } from "../core";
import { loadAnswerReaders } from "../core/http/service-client-impl";
import type { Engine, EngineSettings, RefreshSummary } from "../core/engine-api";
import type { ServiceEnvironment } from "../core/model";
import type { Clock, FetchLike, KeyValueStorage, Logger } from "../core/environment";
import type { Scheduler } from "../core/scheduler";
import { setEngine } from "../host/shared-engine";
import { checkCacheFile, loadCacheFile, saveCacheFile } from "./cache-file";
import { formulaKeys } from "./formula-keys";
import { installCustomFunctionsShim } from "./custom-functions-shim";
import { RunDeadline, type DeadlineOutcome } from "./deadline";
import { installHostRequirementsShim } from "./host-requirements-shim";
import { runPass, type PassCells, type PassReport } from "./run-pass";
import { escapeControls } from "./terminal-text";
import { engineStatsMeter, meteredFetch, usageBetween, type Usage, type UsageMeter } from "./usage-meter";

export const DEFAULT_TIMEOUT_MS = 300_000;

export interface RunOptions {
  formulas: readonly string[];
  /** Recalculations in the same process (engine and cache persist); default 1. */
  passes?: number;
  /** Run refresh-all before the passes. */
  refresh?: boolean;
  sandbox?: boolean;
  baseUrl?: string;
  authUrl?: string;
  username?: string;
  password?: string;
  /** Load storage from this JSON file at start and save it there at the end (checked first). */
  cacheFile?: string;
  /**
   * How long the whole run may take: sign-in, refresh and every pass (default 300 s). A
   * phase still running then ends the run, unsettled; calls in flight are abandoned.
   */
  timeoutMs?: number;
  /**
   * Programmatic use: the timer that ends the run (default: the real setTimeout), set when the
   * cache file has been loaded for what is left of timeoutMs. A test passes timers it fires,
   * so that the deadline does not depend on the machine's speed.
   */
  deadlineTimer?: Scheduler;
  /** Programmatic use: an engine to use instead of building one (it is installed with setEngine). */
  engine?: Engine;
  /** Programmatic use: the engine's environment (defaults: Node's fetch, the real clock). */
  fetch?: FetchLike;
  clock?: Clock;
  /** Where logs go (default stderr: stdout is the report's). */
  log?: Logger;
  /**
   * Called as each pass ends (with the report so far: the refresh summary). When given,
   * the returned report keeps each pass's counts but not its results, which were handed
   * over here: a long run then holds one pass's results at a time.
   */
  onPass?: (pass: PassReport, report: RunReport) => void;
}

/** What one phase of the run (sign-in, refresh) cost, and how it ended. */
export interface PhaseReport extends Usage {
  ms: number;
  /** The phase was still running when the run's timeout ended it. */
  timedOut?: true;
  /** Why the phase failed, when it did. */
  error?: string;
}

/** The refresh phase: its calls, and the refresh-all summary's fields when it finished. */
export type RefreshReport = PhaseReport & Partial<RefreshSummary>;

export interface RunReport {
  /** Whose values the cells show: --sandbox alone decides it (never the cache file). */
  environment: ServiceEnvironment;
  /** Signing in (its token request); zero calls without credentials. */
  signIn: PhaseReport;
  /** Present with the refresh option. */
  refresh?: RefreshReport;
  passes: PassReport[];
  /** Everything the run sent and was charged, from start to end. */
  total: PhaseReport;
  /**
   * Signed in through a team gateway: the data requests counted are the codes it answered,
   * kept or bought, not what the team was charged (the gateway's usage report says that).
   */
  throughGateway?: true;
  /** False when the run did not finish within the timeout (the CLI exits 3). */
  settled: boolean;
  /** Why signing in failed, when it did (cells then show why). */
  signInError?: string;
}

/**
 * Evaluates the formulas for options.passes recalculations. The engine is installed as the
 * process's shared engine for the duration of the run, so run one workbook at a time per
 * process (await each run before starting the next).
 */
export async function runWorkbook(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  installCustomFunctionsShim();
  installHostRequirementsShim();
  const log = options.log ?? stderrLogger;
  // The code that reads the service's answers is a chunk of its own, loaded before a client's
  // first call leaves (core/http/answer-readers.ts): the functions runtime keeps it off Excel's
  // start. A run has no such start to spare, so it loads the chunk while it reads its cache and
  // signs in, not in its first pass, between the cells' first run and their answers.
  const readersLoaded = loadAnswerReaders().catch(() => undefined);
  if (options.engine && options.cacheFile) {
    log(
      "warn",
      "--cache applies only to the engine the runner builds; the given engine keeps its own storage.",
    );
  }
  const storage = options.engine ? undefined : createIdbStorage(`pcd-headless-${randomUUID()}`);
  if (storage && options.cacheFile) {
    // Before any call: a cache that cannot be saved must not cost a workbook's data requests.
    await checkCacheFile(options.cacheFile);
    const loaded = await loadCacheFile(options.cacheFile, storage, log);
    log("info", `Loaded ${loaded} cache entries from ${options.cacheFile}.`);
  }
  let engine: Engine;
  let meter: UsageMeter;
  if (options.engine) {
    engine = options.engine;
    const given = options.engine;
    meter = engineStatsMeter(() => given.stats());
  } else {
    const metered = meteredFetch(options.fetch ?? ((input, init) => fetch(input, init)));
    meter = metered.meter;
    engine = buildEngine({ ...options, fetch: metered.fetch }, storage as KeyValueStorage, log);
  }
  setEngine(engine);
  const atStart = meter.read();
  let previous: PassCells | undefined;
  const report: RunReport = {
    environment: options.sandbox ? "sandbox" : "live",
    signIn: { ...usageBetween(atStart, atStart), ms: 0 },
    passes: [],
    total: { ...usageBetween(atStart, atStart), ms: 0 },
    settled: true,
  };
  // Loading the cache file counts against the timeout too; from here on the run ends in
  // the finally below, which stops the timer.
  const deadline = new RunDeadline(
    (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) - (performance.now() - started),
    options.deadlineTimer,
  );
  try {
    const phase = async <T>(
      work: () => Promise<T>,
    ): Promise<{ outcome: DeadlineOutcome<T>; report: PhaseReport }> => {
      const before = meter.read();
      const phaseStart = performance.now();
      const outcome = await deadline.race(work());
      const phaseReport: PhaseReport = {
        ...usageBetween(before, meter.read()),
        ms: Math.round(performance.now() - phaseStart),
      };
      if (!outcome.done) phaseReport.timedOut = true;
      return { outcome, report: phaseReport };
    };

    const signedIn = await phase(async () => {
      await engine.ready();
      // What the engine uses (a given engine has its own settings).
      report.environment = engine.getSettings().environment;
      if (!options.engine) logAddresses(engine, options, log);
      const [signInError] = await Promise.all([signIn(engine, options, log), readersLoaded]);
      return signInError;
    });
    report.signIn = signedIn.report;
    if (!signedIn.outcome.done) {
      report.settled = false;
      return report;
    }
    if (signedIn.outcome.value) report.signIn.error = report.signInError = signedIn.outcome.value;
    if (engine.authStatus().gateway !== null) report.throughGateway = true;

    if (options.refresh) {
      // The formulas' own keys: a cache file's saved list may name anything.
      const refreshed = await phase(() =>
        formulaKeys(engine, options.formulas)
          .then((keys) => engine.refreshAll(undefined, { keys }))
          .then(
            (summary): RefreshSummary | Error => summary,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          ),
      );
      report.refresh = refreshed.report;
      if (!refreshed.outcome.done) {
        report.settled = false;
        return report;
      }
      const result = refreshed.outcome.value;
      if (result instanceof Error) {
        // The passes still run (cells show cached data or say why they cannot).
        report.refresh.error = result.message;
        log("error", `Refresh all failed: ${result.message}`);
      } else {
        report.refresh = { ...result, ...refreshed.report };
      }
    }

    const passes = Math.max(1, options.passes ?? 1);
    for (let pass = 0; pass < passes; pass += 1) {
      // Excel cancels a recalculated cell's previous invocation before the new one runs.
      for (const invocation of previous?.invocations ?? []) invocation.cancel();
      const { report: passReport, cells } = await runPass(engine, options.formulas, deadline, meter);
      previous = cells;
      if (options.onPass) {
        options.onPass(passReport, report);
        report.passes.push({ ...passReport, results: [] });
      } else {
        report.passes.push(passReport);
      }
      if (passReport.stuck) {
        report.settled = false;
        break;
      }
    }
    return report;
  } finally {
    deadline.cancel();
    for (const invocation of previous?.invocations ?? []) invocation.cancel();
    if (storage && options.cacheFile) {
      // What is cached so far is saved, but a timed-out run does not wait for its calls.
      if (report.settled) await engine.idle();
      const saved = await saveCacheFile(options.cacheFile, storage);
      log("info", `Saved ${saved} cache entries to ${options.cacheFile}.`);
    }
    report.total = { ...usageBetween(atStart, meter.read()), ms: Math.round(performance.now() - started) };
    if (!report.settled) report.total.timedOut = true;
    setEngine(undefined);
  }
}

/** The headless runner's service until --base-url says otherwise: `npm run emulator`. */
export const LOCAL_EMULATOR_URL = "http://127.0.0.1:3001";

function buildEngine(options: RunOptions, storage: KeyValueStorage, log: Logger): Engine {
  const settings: Partial<EngineSettings> = {};
  // Always set: a stored environment (a cache file's) must not choose sandbox values.
  settings.environment = options.sandbox ? "sandbox" : "live";
  if (options.baseUrl) settings.baseUrl = options.baseUrl;
  if (options.authUrl ?? options.baseUrl) settings.authUrl = options.authUrl ?? options.baseUrl;
  return createEngine(
    {
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      storage,
      clock: options.clock ?? { now: () => Date.now() },
      log,
    },
    { settings, defaults: { baseUrl: LOCAL_EMULATOR_URL, authUrl: LOCAL_EMULATOR_URL } },
  );
}

/** Says where the password and the data calls go, and why (never from the cache file). */
function logAddresses(engine: Engine, options: RunOptions, log: Logger): void {
  const { baseUrl, authUrl } = engine.getSettings();
  const dataSource = options.baseUrl ? "--base-url or PCD_BASE_URL" : "built-in default";
  const authSource = options.authUrl
    ? "--auth-url or PCD_AUTH_URL"
    : options.baseUrl
      ? "the data address"
      : "built-in default";
  log("info", `Service addresses: data ${baseUrl} (${dataSource}); sign-in ${authUrl} (${authSource}).`);
}

async function signIn(engine: Engine, options: RunOptions, log: Logger): Promise<string | undefined> {
  if (!options.username || !options.password) {
    if (!engine.authStatus().signedIn)
      log("warn", "No username/password given: formulas will say not signed in.");
    return undefined;
  }
  try {
    await engine.signIn(options.username, options.password);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log("error", /sign-in/i.test(message) ? message : `Sign-in failed: ${message}`);
    return message;
  }
}

const stderrLogger: Logger = (level, message) => {
  if (level !== "debug") process.stderr.write(`[${level}] ${escapeControls(message)}\n`);
};
