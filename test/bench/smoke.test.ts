// A tiny run of the whole benchmark (the same harness as `npm run bench`, 30 formulas, no
// latency) so it cannot rot: it asserts the structural invariants on counts, never timing.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runBenchmark } from "../../bench/benchmark";
import { FULL_RUN } from "../../bench/config";
import { renderResults } from "../../bench/report";
import type { BenchResults, WorkloadResult } from "../../bench/results";

let outDir: string;
let results: BenchResults;
const logged: string[] = [];

function workload(id: string): WorkloadResult {
  const found = results.workloads.find((entry) => entry.id === id);
  if (found === undefined)
    throw new Error(`No result for ${id}; failures: ${JSON.stringify(results.failures)}`);
  return found;
}

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), "pcd-bench-smoke-"));
  results = await runBenchmark(
    {
      ...FULL_RUN,
      latencyMs: 0,
      latencyPerCodeMs: 0,
      workbookFormulas: 30,
      scaleSizes: [20, 25],
      naiveSample: 6,
      needSeries: 9,
      addin: false,
      // The memory budgets need V8's gc, which Jest's workers do not expose; the benchmark
      // measures them (test/bench/memory-budget.test.ts checks their verdicts).
      memory: false,
      outDir,
    },
    { log: (_level, message) => logged.push(message) },
  );
}, 120_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

test("every workload ran", () => {
  expect(results.failures).toEqual([]);
  expect(results.workloads.map((entry) => entry.id)).toEqual([
    "W1",
    "W2 same process",
    "W2 new process",
    "W3",
    "W4",
    "W6 dashboard",
    "W6 recent",
    "W6 history",
    "W6 mixed",
    "W6 toolkit",
    "W5 20",
    "W5 25",
    "spec W1",
    "spec W3",
    "spec W6 dashboard",
    "spec W6 recent",
    "spec W6 history",
    "spec W6 mixed",
    "spec W6 toolkit",
  ]);
  expect(results.settings.shape).toBe("real");
});

// On the real shape each key buys exactly the parts its cells read.
test.each([
  ["W6 dashboard", 1],
  ["W6 recent", 1],
  ["W6 history", 2],
])("%s: calls and data requests equal the need-based bound (%d per key)", (id, perKey) => {
  const result = workload(id);
  expect(result.cellErrors).toBe(0);
  expect(result.dataRequests).toBe(result.dataRequestsBound);
  expect(result.dataRequests).toBe(result.distinctKeys * perKey);
  expect(result.calls.series_hist).toBe(result.callsBound.series_hist);
  expect(result.calls.series_values).toBe(result.callsBound.series_values);
});

test("W6 mixed: latest values and recent ranges cost one request, full history two", () => {
  const mixed = workload("W6 mixed");
  expect(mixed.dataRequests).toBe(mixed.dataRequestsBound);
  expect(mixed.dataRequests).toBeGreaterThan(mixed.distinctKeys);
  expect(mixed.dataRequests).toBeLessThan(2 * mixed.distinctKeys);
});

test("W6 toolkit: toolkit and VALUES cells on the same keys spend the need-based bound", () => {
  const mixed = workload("W6 toolkit");
  expect(mixed.cellErrors).toBe(0);
  expect(mixed.dataRequests).toBe(mixed.dataRequestsBound);
  expect(mixed.calls.series_hist).toBe(mixed.callsBound.series_hist);
  expect(mixed.calls.series_values).toBe(mixed.callsBound.series_values);
});

test("the spec-shaped service is measured too: its cells settle without error", () => {
  for (const id of ["spec W1", "spec W6 history"]) expect(workload(id).cellErrors).toBe(0);
  // Full-history tables by the description's letter: History alone is the bound.
  expect(workload("spec W6 history").dataRequestsBound).toBe(workload("spec W6 history").distinctKeys);
});

test("W1 cold: data calls and data requests equal their lower bounds, no cell fails", () => {
  const cold = workload("W1");
  expect(cold.distinctKeys).toBeGreaterThan(0);
  expect(cold.calls.series_hist).toBe(cold.callsBound.series_hist);
  expect(cold.calls.series_values).toBe(cold.callsBound.series_values);
  expect(cold.dataRequests).toBe(cold.dataRequestsBound);
  expect(cold.cellErrors).toBe(0);
});

test.each([["W2 same process"], ["W2 new process"]])("%s: zero data calls, cells served", (id) => {
  const warm = workload(id);
  expect(warm.calls.series_values + warm.calls.series_hist).toBe(0);
  expect(warm.dataRequests).toBe(0);
  expect(warm.cellErrors).toBe(0);
  expect(warm.cpuMsPerCachedFormula).not.toBeNull();
});

test("the service's counts and the runner's own counts agree on W1's data calls", () => {
  const cold = workload("W1");
  expect(cold.runnerCalls?.series_hist).toBe(cold.calls.series_hist);
  expect(cold.runnerCalls?.series_values).toBe(cold.calls.series_values);
});

test("W3 month start spends data requests only on the series that changed", () => {
  const monthStart = workload("W3");
  expect(monthStart.dataRequestsBound).toBeGreaterThan(0);
  expect(monthStart.dataRequestsBound).toBeLessThanOrEqual(2 * monthStart.distinctKeys);
  expect(monthStart.dataRequests).toBe(monthStart.dataRequestsBound);
});

test("the naive baseline makes one call per cell", () => {
  const naive = workload("W1").naive;
  expect(naive).not.toBeNull();
  expect(naive!.sampled).toBe(6);
  expect(naive!.calls.series_hist + naive!.calls.series_info).toBe(30);
  expect(naive!.failedCells).toBe(0);
});

test("the report renders every workload and target", () => {
  const markdown = renderResults(results);
  for (const entry of results.workloads) expect(markdown).toContain(`| ${entry.id} |`);
  expect(results.targets.length).toBeGreaterThan(0);
  expect(markdown).toContain(results.machine.cpuModel);
});

test("W5: figures from the unprofiled session, profiles from a second one that is not counted", () => {
  const scale = workload("W5 20");
  expect(scale.cellErrors).toBe(0);
  // The profiled session spends the same again; the figures count the first session alone.
  expect(scale.dataRequests).toBe(scale.dataRequestsBound);
  expect(scale.calls.series_values).toBe(scale.callsBound.series_values);
  expect(scale.scale?.coldProfile.length).toBeGreaterThan(0);
  // A full run measures W5 in a process that ran nothing before it.
  expect(scale.notes).toContain(
    "run in a process of its own, after nothing else (its memory figures are its own)",
  );
  expect(scale.notes.some((note) => note.startsWith("profiled session (top CPU entries only): cold "))).toBe(
    true,
  );
});

test("W5: every size's measured session runs before any profiled one (a profiled session would enlarge the next size's starting heap)", () => {
  const sessions = logged.filter((message) => message.startsWith("W5: "));
  expect(sessions).toEqual([
    "W5: 20 formulas (own process)",
    "W5: 25 formulas (own process)",
    "W5: 20 formulas, profiled (own process)",
    "W5: 25 formulas, profiled (own process)",
  ]);
});
