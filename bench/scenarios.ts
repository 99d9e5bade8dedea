// The benchmark's workloads against one running emulator: each runs the real engine
// through the runner's machinery, reads what the service counted, and sets the figures
// beside their lower bounds (and the naive baseline where BENCHMARKS.md compares one).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import {
  measure,
  openSession,
  result,
  texts,
  boundTimeMs,
  type BenchContext,
  type Logged,
} from "./bench-context";
import { coldBound, OPERATIONS, productsOf, releaseBound, warmBound, zeroCalls } from "./bounds";
import type { CatalogSeries } from "./catalog";
import { CpuProfiler, type ProfileEntry } from "./cpu-profile";
import type { EngineSession } from "./engine-session";
import { runNaiveClient } from "./naive-client";
import { runInNewProcess } from "./new-process";
import { SeededRandom } from "./prng";
import { codesInSeveralKeys, distinctRequestKeys, type BenchRequestKey } from "./request-keys";
import type { NaiveFigures, WorkloadResult } from "./results";
import { publishRelease, readCatalog } from "./service";
import type { Workbook } from "./workloads";
import type { PassReport } from "../src/headless/run-pass";

export type { BenchContext } from "./bench-context";

/** The codes a release revises and holds back: a few of the workbook's current series. */
export function releaseChoice(
  keys: readonly BenchRequestKey[],
  byCode: ReadonlyMap<string, CatalogSeries>,
  seed: number,
): { revise: string[]; unchanged: string[] } {
  const latest = [...byCode.values()].reduce(
    (max, series) => (series.lastAvailableFinal > max ? series.lastAvailableFinal : max),
    "",
  );
  const current = [...new Set(keys.map((key) => key.code))].filter((code) => {
    const final = byCode.get(code)?.lastAvailableFinal ?? "";
    // Discontinued series are frozen years back; lag-1 series are one month behind.
    return final >= `${Number(latest.slice(0, 4)) - 1}${latest.slice(4)}`;
  });
  const shuffled = new SeededRandom(seed).shuffled(current);
  const reviseCount = Math.max(1, Math.round(current.length * 0.03));
  const unchangedCount = Math.max(1, Math.round(current.length * 0.05));
  return {
    revise: shuffled.slice(0, reviseCount),
    unchanged: shuffled.slice(reviseCount, reviseCount + unchangedCount),
  };
}

/** W1 cold, W2 warm (same process, then a new process from the saved cache), W3 month start. */
export async function runWorkbookLifecycle(
  context: BenchContext,
  workbook: Workbook,
  onFailure: (workload: string, error: unknown) => void,
): Promise<WorkloadResult[]> {
  const { config, byCode } = context;
  const formulas = texts(workbook);
  const keys = distinctRequestKeys(workbook.formulas, byCode);
  const catalogs = productsOf(
    workbook.formulas.map((formula) => formula.code),
    byCode,
  );
  const results: WorkloadResult[] = [];

  context.log("info", `W1: cold workbook of ${formulas.length} formulas`);
  let session: EngineSession | undefined;
  const cold = await measure(context, async () => {
    session = await openSession(context);
    return session.pass(formulas);
  });
  const open = session as EngineSession | undefined;
  if (open === undefined) throw new Error("W1 did not open an engine session");
  results.push(
    result(context, {
      id: "W1",
      title: "Cold workbook",
      workbook,
      keys,
      measured: cold,
      bound: coldBound(keys, { signIns: 1, catalogs }, config.shape),
      passes: [cold.value],
    }),
  );

  try {
    context.log("info", "W2: warm recalculation in the same process");
    const warm = await measure(context, () => open.pass(formulas));
    const warmResult = result(context, {
      id: "W2 same process",
      title: "Warm recalculation",
      workbook,
      keys,
      measured: warm,
      bound: warmBound({ signIns: 0, catalogs: 0 }),
      passes: [warm.value],
    });
    warmResult.cpuMsPerCachedFormula = warm.cpuMs / formulas.length;
    warmResult.warmMsPerFormula = warm.wallMs / formulas.length;
    results.push(warmResult);

    if (config.newProcess) results.push(await runNewProcess(context, workbook, keys, open));

    results.push(await runMonthStart(context, workbook, keys, catalogs, open));
  } catch (error) {
    // What ran is kept; the failure is reported under the first workload without a result.
    const expected = ["W2 same process", ...(config.newProcess ? ["W2 new process"] : []), "W3"];
    onFailure(expected.find((id) => !results.some((entry) => entry.id === id)) ?? "W3", error);
  } finally {
    await open.close();
  }
  return results;
}

async function runNewProcess(
  context: BenchContext,
  workbook: Workbook,
  keys: readonly BenchRequestKey[],
  session: EngineSession,
): Promise<WorkloadResult> {
  context.log("info", "W2: warm recalculation in a new process from the saved cache");
  const formulasFile = path.join(context.config.outDir, "workbook.txt");
  const cacheFile = path.join(context.config.outDir, "workbook-cache.json");
  await writeFile(formulasFile, `${texts(workbook).join("\n")}\n`, "utf8");
  await session.saveCache(cacheFile);
  const measured = await measure(context, () =>
    runInNewProcess({
      formulasFile,
      cacheFile,
      service: context.service,
      clockOffsetMs: context.clock.offsetMs,
      timeoutMs: context.config.passTimeoutMs,
    }),
  );
  const child = measured.value;
  if (!child.settled) throw new Error("W2's new-process run did not settle or could not sign in");
  const runnerCalls = zeroCalls();
  for (const operation of OPERATIONS) runnerCalls[operation] = child.http[operation] ?? 0;
  const bound = warmBound({ signIns: 1, catalogs: 0 });
  return {
    id: "W2 new process",
    title: "Warm recalculation in a new process with the saved cache",
    formulas: workbook.formulas.length,
    distinctKeys: keys.length,
    composition: workbook.composition,
    calls: measured.service.calls,
    runnerCalls,
    callsBound: bound.calls,
    dataRequests: measured.service.dataRequests,
    dataRequestsBound: bound.dataRequests,
    // The pass itself; the process start (Node, tsx, loading the cache) is in the note.
    wallMs: child.passMs,
    rateLimitBoundMs: boundTimeMs(context, bound),
    cpuMsPerCachedFormula: child.cpuMs / workbook.formulas.length,
    warmMsPerFormula: child.passMs / workbook.formulas.length,
    peakRssMiB: child.maxRssMiB,
    rssGrowthMiB: null,
    cpuMs: child.cpuMs,
    cellErrors: child.cellErrors,
    naive: null,
    notes: [
      `new process total ${(measured.wallMs / 1000).toFixed(2)} s including Node/tsx start, cache load and sign-in; CPU per formula covers the whole child run`,
    ],
  };
}

async function runMonthStart(
  context: BenchContext,
  workbook: Workbook,
  keys: readonly BenchRequestKey[],
  catalogs: number,
  session: EngineSession,
): Promise<WorkloadResult> {
  const { service, byCode, config } = context;
  const choice = releaseChoice(keys, byCode, config.seed + 3);
  context.log(
    "info",
    `W3: release (${choice.revise.length} revised, ${choice.unchanged.length} held back), refresh-all, recalculation`,
  );
  await publishRelease(service.baseUrl, choice);
  const after = new Map((await readCatalog(service)).map((series) => [series.code, series]));
  const measured = await measure(context, async () => {
    const summary = await session.refresh();
    const pass = await session.pass(texts(workbook));
    return { summary, pass };
  });
  const { summary, pass } = measured.value;
  const bound = releaseBound(keys, byCode, after, { signIns: 0, catalogs }, config.shape);
  const recalcData = pass.http.series_values + pass.http.series_hist;
  // The release bound counts one request per key: a code asked in several currencies or
  // units needs as many calls as it has keys, which refresh-all and the recalculation
  // after it must not exceed together (refresh-all packs them: docs/engine.md).
  const several = codesInSeveralKeys(keys);
  return result(context, {
    id: "W3",
    title: "Month start: release, refresh-all, recalculation",
    workbook,
    keys,
    measured,
    bound,
    passes: [pass],
    notes: [
      `multi-currency: ${several.codes} codes are asked in several currencies or units (up to ${several.mostKeys} keys of one code); the calls above are refresh-all and the recalculation together`,
      `refresh-all: ${summary.updated} updated, ${summary.revised} revised, ${summary.unchanged} unchanged, ${summary.failed} failed, ${summary.requestsUsed} requests; the recalculation after it made ${recalcData} data calls`,
      ...summary.failures.slice(0, 3).map((failure) => `refresh failure ${failure.code}: ${failure.message}`),
    ],
  });
}

/** W4: two full recalculations 50 ms apart while the first is still fetching (cold engine). */
export async function runStorm(context: BenchContext, workbook: Workbook): Promise<WorkloadResult> {
  const { byCode, config } = context;
  const keys = distinctRequestKeys(workbook.formulas, byCode);
  context.log("info", `W4: recalculation storm (${config.stormGapMs} ms apart)`);
  let session: EngineSession | undefined;
  const measured = await measure(context, async () => {
    session = await openSession(context);
    return session.storm(texts(workbook), config.stormGapMs);
  });
  await (session as EngineSession | undefined)?.close();
  const catalogs = productsOf(
    workbook.formulas.map((formula) => formula.code),
    byCode,
  );
  return result(context, {
    id: "W4",
    title: `Recalculation storm: two recalculations ${config.stormGapMs} ms apart`,
    workbook,
    keys,
    measured,
    bound: coldBound(keys, { signIns: 1, catalogs }, config.shape),
    passes: [measured.value],
    notes: ["the pass counts are the second recalculation's; the service's counts cover both"],
  });
}

/**
 * W5: one size, cold then served from cache. The figures come from passes without a
 * profiler: the inspector's sampling costs the busy event loop time of its own (30,000
 * formulas: cold 1.24 x the bound unprofiled against 1.34 profiled), which Excel does not
 * pay. The top CPU entries come from a second session of the same size (addScaleProfile).
 */
export async function runScalePoint(context: BenchContext, workbook: Workbook): Promise<WorkloadResult> {
  const { byCode } = context;
  const formulas = texts(workbook);
  const keys = distinctRequestKeys(workbook.formulas, byCode);
  context.log("info", `W5: ${formulas.length} formulas`);
  const { cold, warm } = await scalePasses(context, formulas);
  const catalogs = productsOf(
    workbook.formulas.map((formula) => formula.code),
    byCode,
  );
  const scale = result(context, {
    id: `W5 ${formulas.length}`,
    title: `Scale: ${formulas.length} formulas`,
    workbook,
    keys,
    measured: cold,
    bound: coldBound(keys, { signIns: 1, catalogs }, context.config.shape),
    passes: [cold.value],
  });
  scale.warmMsPerFormula = warm.wallMs / formulas.length;
  scale.cpuMsPerCachedFormula = warm.cpuMs / formulas.length;
  scale.peakRssMiB = Math.max(cold.peakRssMiB, warm.peakRssMiB);
  const startMiB = cold.peakRssMiB - cold.rssGrowthMiB;
  scale.rssGrowthMiB = scale.peakRssMiB - startMiB;
  scale.scale = {
    coldCpuMs: cold.cpuMs,
    coldGcMs: cold.gcMs,
    warmWallMs: warm.wallMs,
    warmCpuMs: warm.cpuMs,
    warmGcMs: warm.gcMs,
    rssGrowthMiBPer1000: (scale.rssGrowthMiB * 1000) / formulas.length,
    coldProfile: [],
    warmProfile: [],
  };
  const warmData = warm.service.calls.series_values + warm.service.calls.series_hist;
  if (warmData > 0) scale.notes.push(`the cached recalculation made ${warmData} data calls`);
  return scale;
}

/**
 * The top CPU entries of a W5 size, from a session of its own under the profiler (a fresh
 * engine and empty cache, so the same work). Run after every size's unprofiled session: a
 * profiled session leaves the process's heap larger than the next size needs, and a size
 * measured after one grew less than it does alone (10,000 formulas: 20 against 30 MB per
 * 1,000 formulas on the same code).
 */
export async function addScaleProfile(
  context: BenchContext,
  workbook: Workbook,
  scale: WorkloadResult,
): Promise<void> {
  const formulas = texts(workbook);
  context.log("info", `W5: ${formulas.length} formulas, profiled`);
  const profiles = await profiledScalePasses(context, formulas);
  if (scale.scale !== undefined) {
    scale.scale.coldProfile = profiles.cold;
    scale.scale.warmProfile = profiles.warm;
  }
  scale.notes.push(
    `profiled session (top CPU entries only): cold ${(profiles.coldWallMs / 1000).toFixed(2)} s, warm ${(
      profiles.warmWallMs / formulas.length
    ).toFixed(4)} ms per formula`,
  );
}

interface ScalePasses {
  cold: Logged<PassReport>;
  warm: Logged<PassReport>;
}

/** A fresh engine with an empty cache: the cold pass, then the warm one in the same session. */
async function scalePasses(
  context: BenchContext,
  formulas: readonly string[],
  profiler?: { cold: () => Promise<void>; warm: () => Promise<void> },
): Promise<ScalePasses> {
  // The previous size's (or session's) garbage must not count as this one's memory.
  collectGarbage();
  let session: EngineSession | undefined;
  await profiler?.cold();
  const cold = await measure(context, async () => {
    session = await openSession(context);
    return session.pass(formulas);
  });
  const open = session as EngineSession | undefined;
  if (open === undefined) throw new Error("W5 did not open an engine session");
  try {
    await profiler?.warm();
    const warm = await measure(context, () => open.pass(formulas));
    return { cold, warm };
  } finally {
    await open.close();
  }
}

interface ScaleProfiles {
  cold: ProfileEntry[];
  warm: ProfileEntry[];
  coldWallMs: number;
  warmWallMs: number;
}

/** The same passes again under the sampling profiler, one profile per pass. */
async function profiledScalePasses(
  context: BenchContext,
  formulas: readonly string[],
): Promise<ScaleProfiles> {
  let running: CpuProfiler | undefined;
  let cold: ProfileEntry[] = [];
  const passes = await scalePasses(context, formulas, {
    cold: async () => {
      running = await CpuProfiler.start();
    },
    warm: async () => {
      cold = (await running?.stop()) ?? [];
      running = await CpuProfiler.start();
    },
  });
  const warm = (await running?.stop()) ?? [];
  return { cold, warm, coldWallMs: passes.cold.wallMs, warmWallMs: passes.warm.wallMs };
}

/** A full collection, when the process can run one (Node started with --expose-gc). */
function collectGarbage(): void {
  // Without it the start level includes some garbage: the growth figure is then conservative.
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc === "function") (gc as () => void)();
}

/** The naive client on a sample of the workbook, scaled linearly to all of it. */
export async function runNaive(context: BenchContext, workbook: Workbook): Promise<NaiveFigures> {
  const sample = workbook.formulas.slice(0, Math.min(context.config.naiveSample, workbook.formulas.length));
  context.log("info", `Naive baseline: ${sample.length} cells`);
  const measured = await measure(context, () => runNaiveClient(sample, context.service));
  const scale = workbook.formulas.length / sample.length;
  const calls = zeroCalls();
  for (const operation of OPERATIONS)
    calls[operation] = Math.round(measured.service.calls[operation] * scale);
  // One sign-in whatever the size.
  calls.access_token = measured.service.calls.access_token;
  return {
    sampled: sample.length,
    cells: workbook.formulas.length,
    calls,
    dataRequests: Math.round(measured.service.dataRequests * scale),
    wallMs: measured.wallMs * scale,
    cpuMs: measured.cpuMs * scale,
    failedCells: measured.value.failedCells,
  };
}

/** W6: a need workbook, cold in its own session, beside its need-based bound. */
export async function runNeedWorkbook(
  context: BenchContext,
  id: string,
  title: string,
  workbook: Workbook,
): Promise<WorkloadResult> {
  const { byCode, config } = context;
  const keys = distinctRequestKeys(workbook.formulas, byCode);
  context.log("info", `${id}: ${workbook.formulas.length} formulas over ${keys.length} keys`);
  let session: EngineSession | undefined;
  const measured = await measure(context, async () => {
    session = await openSession(context);
    return session.pass(texts(workbook));
  });
  await (session as EngineSession | undefined)?.close();
  const catalogs = productsOf(
    workbook.formulas.map((formula) => formula.code),
    byCode,
  );
  return result(context, {
    id,
    title,
    workbook,
    keys,
    measured,
    bound: coldBound(keys, { signIns: 1, catalogs }, config.shape),
    passes: [measured.value],
  });
}
