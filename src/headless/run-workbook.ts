// The programmatic runner (what `npm run recalc` does): builds the same engine the add-in
// uses on Node (fetch, fake-indexeddb), signs in, optionally refreshes, and evaluates the
// formulas through the real custom functions for one or more passes.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { createEngine, createIdbStorage } from "../core";
import type { Engine, EngineSettings, RefreshSummary } from "../core/engine-api";
import type { Clock, FetchLike, KeyValueStorage, Logger } from "../core/environment";
import { setEngine } from "../host/shared-engine";
import { loadCacheFile, saveCacheFile } from "./cache-file";
import { installCustomFunctionsShim } from "./custom-functions-shim";
import { runPass, type PassCells, type PassReport } from "./run-pass";

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
  /** Load storage from this JSON file at start and save it there at the end. */
  cacheFile?: string;
  /** How long one pass may take to settle; default 300 s. */
  timeoutMs?: number;
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
   * over here: a long run then holds one pass's results at a time (report-writer.ts).
   */
  onPass?: (pass: PassReport, report: RunReport) => void;
}

export interface RunReport {
  passes: PassReport[];
  refresh?: RefreshSummary;
  /** False when a pass did not settle within the timeout (the CLI exits 3). */
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
  installCustomFunctionsShim();
  const log = options.log ?? stderrLogger;
  const storage = options.engine ? undefined : createIdbStorage(`pcd-headless-${randomUUID()}`);
  if (storage && options.cacheFile) {
    const loaded = await loadCacheFile(options.cacheFile, storage, log);
    log("info", `Loaded ${loaded} cache entries from ${options.cacheFile}.`);
  }
  if (options.engine && options.cacheFile) {
    log(
      "warn",
      "--cache applies only to the engine the runner builds; the given engine keeps its own storage.",
    );
  }
  const engine = options.engine ?? buildEngine(options, storage as KeyValueStorage, log);
  setEngine(engine);
  let previous: PassCells | undefined;
  try {
    await engine.ready();
    if (!options.engine) logAddresses(engine, options, log);
    const report: RunReport = { passes: [], settled: true };
    const signInError = await signIn(engine, options, log);
    if (signInError) report.signInError = signInError;
    if (options.refresh) {
      try {
        report.refresh = await engine.refreshAll();
      } catch (error) {
        // The passes still run (cells show cached data or say why they cannot); the report
        // then has no refresh summary.
        log("error", `Refresh all failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const passes = Math.max(1, options.passes ?? 1);
    for (let pass = 0; pass < passes; pass += 1) {
      // Excel cancels a recalculated cell's previous invocation before the new one runs.
      for (const invocation of previous?.invocations ?? []) invocation.cancel();
      const { report: passReport, cells } = await runPass(
        engine,
        options.formulas,
        options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      );
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
    for (const invocation of previous?.invocations ?? []) invocation.cancel();
    if (storage && options.cacheFile) {
      await engine.idle();
      const saved = await saveCacheFile(options.cacheFile, storage);
      log("info", `Saved ${saved} cache entries to ${options.cacheFile}.`);
    }
    setEngine(undefined);
  }
}

/** The headless runner's service until --base-url says otherwise: `npm run emulator`. */
const LOCAL_EMULATOR_URL = "http://127.0.0.1:3001";

function buildEngine(options: RunOptions, storage: KeyValueStorage, log: Logger): Engine {
  const settings: Partial<EngineSettings> = {};
  if (options.sandbox) settings.environment = "sandbox";
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
  if (level !== "debug") process.stderr.write(`[${level}] ${message}\n`);
};
