import { zeroCalls } from "../../bench/bounds";
import { END_MARKER, renderResults, spliceResults, START_MARKER, targetRows } from "../../bench/report";
import type { BenchResults, WorkloadResult } from "../../bench/results";

describe("spliceResults", () => {
  test.each([
    [
      "replaces the marked section and keeps the text around it",
      `# Benchmarks\nintro\n${START_MARKER}\nold\n${END_MARKER}\nanalysis\n`,
      `# Benchmarks\nintro\n${START_MARKER}\nnew\n${END_MARKER}\nanalysis\n`,
    ],
    [
      "appends a section when there is none",
      "# Benchmarks\n",
      `# Benchmarks\n\n${START_MARKER}\nnew\n${END_MARKER}\n`,
    ],
  ])("%s", (_name, document, expected) => {
    expect(spliceResults(document, `${START_MARKER}\nnew\n${END_MARKER}`)).toBe(expected);
  });
});

/** A one-second run's time, machine and settings, for the tests that look at other parts. */
const SMALL_RUN: Pick<BenchResults, "generatedAt" | "durationMs" | "machine" | "settings"> = {
  generatedAt: "2026-11-22T03:00:00.000Z",
  durationMs: 1000,
  machine: {
    cpuModel: "AMD EPYC",
    cores: 2,
    memoryGiB: 8,
    node: "v20",
    platform: "linux",
    loadAverage: [0, 0, 0],
  },
  settings: { seed: 7, latencyMs: 200, latencyPerCodeMs: 2, naiveSample: 0, w1Formulas: 0, scaleSizes: [] },
};

function workload(overrides: Partial<WorkloadResult>): WorkloadResult {
  return {
    id: "W1",
    title: "Cold workbook",
    formulas: 2000,
    distinctKeys: 1372,
    composition: null,
    calls: { ...zeroCalls(), access_token: 1, series_info: 3, series_hist: 39, data_limits: 3 },
    runnerCalls: null,
    callsBound: { ...zeroCalls(), access_token: 1, series_info: 3, series_hist: 38 },
    dataRequests: 1372,
    dataRequestsBound: 1372,
    wallMs: 12000,
    rateLimitBoundMs: 4080,
    cpuMsPerCachedFormula: null,
    warmMsPerFormula: null,
    peakRssMiB: 250,
    rssGrowthMiB: 100,
    cpuMs: 3000,
    cellErrors: 0,
    naive: null,
    notes: ["series_hist codes per call: 40,40"],
    ...overrides,
  };
}

test("renderResults writes the machine, each table row, targets and failures, and points to the notes", () => {
  const results: BenchResults = {
    generatedAt: "2026-11-22T03:00:00.000Z",
    durationMs: 200000,
    machine: {
      cpuModel: "AMD EPYC",
      cores: 2,
      memoryGiB: 23.5,
      node: "v20.20.2",
      platform: "linux",
      loadAverage: [0.5, 0.4, 0.3],
    },
    settings: {
      seed: 7,
      latencyMs: 200,
      latencyPerCodeMs: 2,
      naiveSample: 200,
      w1Formulas: 2000,
      scaleSizes: [],
    },
    workloads: [
      workload({}),
      workload({
        id: "W2 same process",
        calls: zeroCalls(),
        callsBound: zeroCalls(),
        dataRequests: 0,
        dataRequestsBound: 0,
        notes: [],
      }),
    ],
    addin: null,
    targets: [
      {
        workload: "W1",
        target: "series_hist calls / lower bound = 1.00",
        value: "39 / 38 = 1.03",
        met: false,
      },
    ],
    failures: [{ workload: "W5 100", error: "boom" }],
  };
  const markdown = renderResults(results);
  expect(markdown.startsWith(START_MARKER)).toBe(true);
  expect(markdown.endsWith(END_MARKER)).toBe(true);
  expect(markdown).toContain(
    "AMD EPYC, 2 cores, 23.5 GiB memory, Node v20.20.2, linux; load average 0.5 / 0.4 / 0.3",
  );
  expect(markdown).toContain("| W1 | 1 / 1 | 3 / 3 | 0 / 0 | 39 / 38 | 3 / 0 | 39 / 38 = 1.03 |");
  expect(markdown).toContain("| W2 same process | 2000 | 1372 | 0 | 0 | 1.00 |");
  expect(markdown).toContain("| W1 | series_hist calls / lower bound = 1.00 | 39 / 38 = 1.03 | **no** |");
  expect(markdown).toContain("- W5 100: boom");
  expect(markdown).not.toContain("codes per call: 40,40");
  expect(markdown).toContain("Each workload's notes (");
  expect(markdown).toContain("Naive baseline: not run.");
});

test("renderResults lists the add-in's bundles and the functions runtime's largest modules", () => {
  const results: BenchResults = {
    ...SMALL_RUN,
    workloads: [],
    addin: {
      functionsGzipBytes: 48 * 1024,
      functionsLazyGzipBytes: 5 * 1024,
      taskpaneGzipBytes: 210 * 1024,
      bundleFiles: {
        functions: ["functions.js", "runtime.js"],
        functionsLazy: ["search-index.1f2e3d4c.js"],
        taskpane: ["taskpane.js"],
      },
      functionsModules: [
        { name: "valibot", bytes: 10240 },
        { name: "src/core/engine-core.ts", bytes: 5120 },
      ],
      functionsMinifiedBytes: 102400,
      bundleNote: "",
      startupMs: null,
      startupNote: "not measured: no browser",
    },
    targets: [],
    failures: [],
  };
  const markdown = renderResults(results);
  for (const line of [
    "| Functions runtime bundle at start (gzip) | 48.0 KiB | functions.js, runtime.js |",
    "| Functions runtime, chunks loaded on first use (gzip) | 5.0 KiB | search-index.1f2e3d4c.js |",
    "### Functions runtime: largest modules",
    "100.0 KiB minified in all, 48.0 KiB gzip.",
    "| valibot | 10.0 KiB | 10.0 % |",
    "| src/core/engine-core.ts | 5.0 KiB | 5.0 % |",
  ]) {
    expect(markdown).toContain(line);
  }
});

describe("targetRows", () => {
  const check = (workload: string, target: string, met: boolean) => ({
    workload,
    target,
    value: `${target} value`,
    met,
  });
  test.each([
    [
      "a workload whose targets are all met is one row",
      [check("W1", "calls", true), check("W1", "time", true)],
      [["W1", "calls; time", "calls value; time value", "yes"]],
    ],
    [
      "a workload with a miss shows each target",
      [check("W5", "cold", true), check("W5", "memory", false)],
      [
        ["W5", "cold", "cold value", "yes"],
        ["W5", "memory", "memory value", "**no**"],
      ],
    ],
    [
      "workloads keep their order",
      [check("W2", "zero", true), check("W1", "calls", true), check("W2", "again", true)],
      [
        ["W2", "zero; again", "zero value; again value", "yes"],
        ["W1", "calls", "calls value", "yes"],
      ],
    ],
  ])("%s", (_case, targets, rows) => {
    expect(targetRows(targets)).toEqual(rows);
  });
});

test("renderResults keeps the spec shape's rows to the data requests table, W5's sizes out of the time table, and profiles only the largest size", () => {
  const profile = (name: string) => [{ name, selfMs: 10, percent: 5 }];
  const scale = (size: number): WorkloadResult["scale"] => ({
    coldCpuMs: 1000,
    coldGcMs: 10,
    warmWallMs: 50,
    warmCpuMs: 40,
    warmGcMs: 1,
    rssGrowthMiBPer1000: 10,
    coldProfile: profile(`cold at ${size}`),
    warmProfile: profile(`warm at ${size}`),
  });
  const results: BenchResults = {
    ...SMALL_RUN,
    workloads: [
      workload({}),
      workload({ id: "spec W1" }),
      workload({ id: "W5 1000", formulas: 1000, scale: scale(1000) }),
      workload({ id: "W5 10000", formulas: 10000, scale: scale(10000) }),
    ],
    addin: null,
    targets: [],
    failures: [],
  };
  const markdown = renderResults(results);
  const section = (heading: string): string => markdown.split(`### ${heading}`)[1]?.split("###")[0] ?? "";
  expect(section("HTTP calls per operation")).not.toContain("| spec W1 |");
  expect(section("Data requests")).toContain("| spec W1 |");
  const time = section("Time and resources");
  expect(time).toContain("| W1 |");
  expect(time).not.toContain("| spec W1 |");
  expect(time).not.toContain("| W5 1000 |");
  expect(markdown).toContain("- 10000 formulas, cold: cold at 10000");
  expect(markdown).not.toContain("- 1000 formulas, cold");
});
