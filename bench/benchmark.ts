// One benchmark run: starts the emulator on loopback, reads the catalog, generates the
// workbooks, runs W1-W5 and the naive baseline, measures the memory budgets, and returns
// every figure with its bounds.
import { mkdir } from "node:fs/promises";
import type { Logger } from "../src/core/environment";
import { startBenchEmulator, type EmulatorProcess } from "./emulator-host";
import { CallLog } from "./call-log";
import type { CatalogSeries } from "./catalog";
import { pinClock } from "./clock";
import type { BenchConfig } from "./config";
import { describeMachine } from "./machine";
import type { AddinMeasurement } from "./addin";
import type { BenchResults, NaiveFigures, WorkloadResult } from "./results";
import { memoryTargets } from "./memory-budget";
import { measureMemoryBudgets } from "./memory-budgets";
import { generateNeedWorkbook, NEED_WORKBOOKS } from "./need-workloads";
import {
  runNaive,
  runNeedWorkbook,
  addScaleProfile,
  runScalePoint,
  runStorm,
  runWorkbookLifecycle,
  type BenchContext,
} from "./scenarios";
import { runScaleInNewProcess } from "./scale-process";
import { readCatalog, resetCounters } from "./service";
import { evaluateAddinTargets, evaluateTargets } from "./targets";
import { generateWorkbook } from "./workloads";

export interface BenchHooks {
  log: Logger;
  /** Builds the add-in (started first, awaited after the naive baseline) and returns its measurement. */
  buildAddin?: () => Promise<AddinMeasurement>;
}

export async function runBenchmark(config: BenchConfig, hooks: BenchHooks): Promise<BenchResults> {
  const started = performance.now();
  await mkdir(config.outDir, { recursive: true });
  const clock = pinClock();
  // First, while nothing else allocates: a build or a workload running beside them would be counted.
  const memory = config.memory ? await measureMemoryBudgets() : [];
  // Builds are CPU-heavy: they overlap only the naive baseline, which waits on the rate limit.
  const addinBuild = hooks.buildAddin?.();
  const emulator = await startBenchEmulator(config, clock);
  try {
    const service = serviceOf(emulator);
    const catalog: CatalogSeries[] = await readCatalog(service);
    await resetCounters(service.baseUrl);
    const context: BenchContext = {
      config,
      service,
      clock,
      catalog,
      byCode: new Map(catalog.map((series) => [series.code, series])),
      log: hooks.log,
      callLog: new CallLog(),
    };
    const workbook = generateWorkbook(catalog, config.workbookFormulas, config.seed);
    const workloads: WorkloadResult[] = [];
    const failures: BenchResults["failures"] = [];
    // A workload that fails is reported as such; the others still run.
    const fail = (workload: string, error: unknown): void => {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      hooks.log("error", `${workload} failed: ${message}`);
      failures.push({ workload, error: message.split("\n").slice(0, 4).join(" ") });
    };
    const attempt = async <T>(workload: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (error) {
        fail(workload, error);
        return undefined;
      }
    };

    // The naive baseline runs first, on the untouched release the cold workbook also sees.
    const naive = async (): Promise<NaiveFigures | null> =>
      config.naiveSample > 0 && !config.onlyScale
        ? ((await attempt("naive baseline", () => runNaive(context, workbook))) ?? null)
        : null;
    const naiveW1 = await naive();
    const naiveW2 = await naive();

    const measureAddin = addinBuild === undefined ? undefined : await addinBuild;
    // Before W3's release, so that every need workbook is read against the catalog it was made from.
    const needWorkloads = config.onlyScale ? [] : await runNeedWorkbooks(context, "", attempt);
    const storm = config.onlyScale ? undefined : await attempt("W4", () => runStorm(context, workbook));
    const lifecycle = config.onlyScale
      ? []
      : await attempt("W1-W3", () => runWorkbookLifecycle(context, workbook, fail));
    for (const entry of lifecycle ?? []) {
      if (entry.id === "W1") entry.naive = naiveW1;
      if (entry.id.startsWith("W2")) entry.naive = naiveW2;
    }
    workloads.push(...(lifecycle ?? []), ...(storm === undefined ? [] : [storm]), ...needWorkloads);
    // W3 published a release: the workbooks generated from here on see its catalog.
    context.catalog = await readCatalog(service);
    context.byCode = new Map(context.catalog.map((series) => [series.code, series]));
    if (!config.onlyScale && config.newProcess && config.scaleSizes.length > 0) {
      // A process of its own, so that each size's memory is its own (scale-run.ts); its
      // emulator is a fresh one in the same shape, on the same seed and clock.
      const scale = await attempt("W5", () => runScaleInNewProcess(config, hooks.log));
      for (const point of scale?.workloads ?? []) {
        point.notes.push("run in a process of its own, after nothing else (its memory figures are its own)");
        workloads.push(point);
      }
      failures.push(...(scale?.failures ?? []));
    } else {
      // Every size unprofiled first (their figures), then the profiled sessions (addScaleProfile).
      const points = new Map<number, WorkloadResult>();
      for (const size of config.scaleSizes) {
        const point = await attempt(`W5 ${size}`, () =>
          runScalePoint(context, generateWorkbook(catalog, size, config.seed + size)),
        );
        if (point !== undefined) points.set(size, point);
      }
      for (const [size, point] of config.profile ? points : []) {
        await attempt(`W5 ${size} profile`, () =>
          addScaleProfile(context, generateWorkbook(catalog, size, config.seed + size), point),
        );
      }
      workloads.push(...points.values());
    }

    if (config.compareShapes && !config.onlyScale) {
      const other = config.shape === "real" ? "spec" : "real";
      workloads.push(...(await runOtherShape({ ...config, shape: other }, clock, workbook, hooks, attempt)));
    }

    const addin = measureAddin === undefined ? null : await measureAddin();
    return {
      generatedAt: new Date().toISOString(),
      durationMs: performance.now() - started,
      machine: describeMachine(),
      settings: {
        seed: config.seed,
        latencyMs: config.latencyMs,
        latencyPerCodeMs: config.latencyPerCodeMs,
        naiveSample: config.naiveSample,
        w1Formulas: config.workbookFormulas,
        shape: config.shape,
        scaleSizes: config.scaleSizes,
      },
      workloads,
      addin,
      targets: [...evaluateTargets(workloads), ...evaluateAddinTargets(addin), ...memoryTargets(memory)],
      memory,
      failures,
    };
  } finally {
    await emulator.close();
  }
}

type Attempt = <T>(workload: string, run: () => Promise<T>) => Promise<T | undefined>;

/** W6: the need workbooks, each cold. `prefix` names the shape of a comparison run. */
async function runNeedWorkbooks(
  context: BenchContext,
  prefix: string,
  attempt: Attempt,
): Promise<WorkloadResult[]> {
  const results: WorkloadResult[] = [];
  if (context.config.needSeries === 0) return results;
  for (const { kind, title } of NEED_WORKBOOKS) {
    const id = `${prefix}W6 ${kind}`;
    const workbook = generateNeedWorkbook(
      context.catalog,
      kind,
      context.config.needSeries,
      context.config.seed + 11,
    );
    const point = await attempt(id, () => runNeedWorkbook(context, id, title, workbook));
    if (point !== undefined) results.push(point);
  }
  return results;
}

/**
 * W1, W3 and W6 against a service of the other shape (same seed and clock, so the same
 * data), reported as "<shape> W1" and so on: beside the targets, not among them.
 */
async function runOtherShape(
  config: BenchConfig,
  clock: ReturnType<typeof pinClock>,
  workbook: ReturnType<typeof generateWorkbook>,
  hooks: BenchHooks,
  attempt: Attempt,
): Promise<WorkloadResult[]> {
  const emulator = await startBenchEmulator(config, clock);
  try {
    const service = serviceOf(emulator);
    const catalog = await readCatalog(service);
    await resetCounters(service.baseUrl);
    const context: BenchContext = {
      config: { ...config, newProcess: false },
      service,
      clock,
      catalog,
      byCode: new Map(catalog.map((series) => [series.code, series])),
      log: hooks.log,
      callLog: new CallLog(),
    };
    const prefix = `${config.shape} `;
    const results: WorkloadResult[] = [];
    const needWorkloads = await runNeedWorkbooks(context, prefix, attempt);
    const lifecycle = await attempt(`${prefix}W1-W3`, () =>
      runWorkbookLifecycle(context, workbook, (name, error) =>
        hooks.log("error", `${prefix}${name}: ${String(error)}`),
      ),
    );
    for (const entry of lifecycle ?? []) {
      if (entry.id.startsWith("W2")) continue;
      results.push({ ...entry, id: `${prefix}${entry.id}`, title: `${entry.title} (${config.shape} shape)` });
    }
    results.push(...needWorkloads);
    return results;
  } finally {
    await emulator.close();
  }
}

function serviceOf(emulator: EmulatorProcess): BenchContext["service"] {
  return {
    baseUrl: emulator.url,
    authUrl: emulator.url,
    username: emulator.username,
    password: emulator.password,
  };
}
