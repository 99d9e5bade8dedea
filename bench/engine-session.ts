// One engine as the add-in's shared runtime would hold it, driven through the headless
// runner's machinery (runPass, the real custom functions, the CustomFunctions shim), with
// hooks between passes that runWorkbook does not offer (the service's counters and CPU
// time per pass) and a second recalculation started while the first is still fetching.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createEngine, createIdbStorage } from "../src/core";
import type { Engine, RefreshSummary } from "../src/core/engine-api";
import type { Clock, FetchLike, KeyValueStorage, Logger } from "../src/core/environment";
import { installCustomFunctionsShim, parseFormula, FormulaSyntaxError } from "../src/headless";
import { saveCacheFile } from "../src/headless/cache-file";
import { RecordingInvocation } from "../src/headless/invocation";
import { arityError, invokeFunction } from "../src/headless/invoke";
import { runPass, type PassReport } from "../src/headless/run-pass";
import { setEngine } from "../src/host/shared-engine";
import type { CallLog } from "./call-log";
import { GcTimer } from "./gc-timer";
import { MemorySampler } from "./memory-sampler";
import { countersBetween, readCounters, type ServiceAddress, type ServiceCounters } from "./service";

export interface Measured<T> {
  value: T;
  /** The service's count of what this step spent. */
  service: ServiceCounters;
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
  /** Peak resident memory above what the process held when the step started. */
  rssGrowthMiB: number;
  /** Garbage-collection pauses during the step. */
  gcMs: number;
}

/** Runs a step and measures what it cost the service, the clock, the CPU and memory. */
export async function measure<T>(baseUrl: string, step: () => Promise<T>): Promise<Measured<T>> {
  const before = await readCounters(baseUrl);
  const sampler = new MemorySampler();
  const gc = new GcTimer();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await step();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const peakRssMiB = sampler.stop();
  const gcMs = gc.stop().ms;
  const rssGrowthMiB = peakRssMiB - sampler.startMiB;
  const after = await readCounters(baseUrl);
  return {
    value,
    service: countersBetween(before, after),
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    peakRssMiB,
    rssGrowthMiB,
    gcMs,
  };
}

export interface SessionOptions {
  service: ServiceAddress;
  /** Records every call the engine sends (evidence for the notes). */
  callLog?: CallLog;
  clock: Clock;
  log: Logger;
  passTimeoutMs: number;
}

export class EngineSession {
  private previous: RecordingInvocation[] = [];

  private constructor(
    readonly engine: Engine,
    private readonly storage: KeyValueStorage,
    private readonly options: SessionOptions,
  ) {}

  /** A fresh engine with its own empty storage, installed for the custom functions and signed in. */
  static async open(options: SessionOptions): Promise<EngineSession> {
    installCustomFunctionsShim();
    const storage = createIdbStorage(`pcd-bench-${randomUUID()}`);
    const engine = createEngine(
      {
        fetch: options.callLog?.wrap(plainFetch) ?? plainFetch,
        storage,
        clock: options.clock,
        log: options.log,
      },
      { settings: { baseUrl: options.service.baseUrl, authUrl: options.service.authUrl } },
    );
    setEngine(engine);
    await engine.ready();
    await engine.signIn(options.service.username, options.service.password);
    return new EngineSession(engine, storage, options);
  }

  /** One recalculation; the previous one's cells are cancelled first, as Excel does. */
  async pass(formulas: readonly string[]): Promise<PassReport> {
    this.cancelPrevious();
    const { report, cells } = await runPass(this.engine, formulas, this.options.passTimeoutMs);
    this.previous = cells.invocations;
    if (report.stuck) throw new Error(`A pass did not settle: ${report.stuck.length} formulas stuck`);
    return report;
  }

  refresh(): Promise<RefreshSummary> {
    return this.engine.refreshAll();
  }

  /**
   * A recalculation storm: every formula invoked, then after `gapMs` (while the first
   * recalculation is still fetching) cancelled and invoked again; ends when the second settles.
   */
  async storm(formulas: readonly string[], gapMs: number): Promise<PassReport> {
    this.cancelPrevious();
    const first = formulas.flatMap(startCell);
    await sleep(gapMs);
    for (const invocation of first) invocation.cancel();
    return this.pass(formulas);
  }

  /** Writes the engine's storage as the runner's --cache file. */
  async saveCache(file: string): Promise<void> {
    await this.engine.idle();
    await saveCacheFile(file, this.storage);
  }

  /** Cancels the cells and empties the storage, so later workloads do not carry this one's memory. */
  async close(): Promise<void> {
    this.cancelPrevious();
    await this.engine.idle();
    setEngine(undefined);
    for (const key of await this.storage.keys()) await this.storage.delete(key);
  }

  private cancelPrevious(): void {
    for (const invocation of this.previous) invocation.cancel();
    this.previous = [];
  }
}

const plainFetch: FetchLike = (input, init) => fetch(input, init);

/** Invokes one formula the way run-pass does, for the first half of a storm. */
function startCell(formula: string): RecordingInvocation[] {
  const parsed = parseFormula(formula);
  if (parsed instanceof FormulaSyntaxError || arityError(parsed.name, parsed.args) !== undefined) return [];
  const invocation = new RecordingInvocation();
  invokeFunction(parsed.name, parsed.args, invocation);
  return [invocation];
}
