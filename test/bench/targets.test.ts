import { zeroCalls } from "../../bench/bounds";
import type { AddinFigures, ScaleFigures, WorkloadResult } from "../../bench/results";
import { evaluateAddinTargets, evaluateTargets } from "../../bench/targets";

function workload(id: string, overrides: Partial<WorkloadResult> = {}): WorkloadResult {
  return {
    id,
    title: id,
    formulas: 1000,
    distinctKeys: 100,
    composition: null,
    calls: { ...zeroCalls(), series_hist: 3 },
    runnerCalls: null,
    callsBound: { ...zeroCalls(), series_hist: 3 },
    dataRequests: 100,
    dataRequestsBound: 100,
    wallMs: 1000,
    rateLimitBoundMs: 1000,
    cpuMsPerCachedFormula: null,
    warmMsPerFormula: null,
    peakRssMiB: null,
    rssGrowthMiB: null,
    cpuMs: null,
    cellErrors: 0,
    naive: null,
    notes: [],
    ...overrides,
  };
}

function met(results: WorkloadResult[]): Record<string, boolean> {
  return Object.fromEntries(
    evaluateTargets(results).map((check) => [`${check.workload}: ${check.target}`, check.met]),
  );
}

test.each([
  ["W1 at its bounds and within 1.2 x time", workload("W1", { wallMs: 1200 }), true],
  ["W1 one call over", workload("W1", { calls: { ...zeroCalls(), series_hist: 4 } }), false],
  ["W1 one request over", workload("W1", { dataRequests: 101 }), false],
  ["W1 too slow", workload("W1", { wallMs: 1201 }), false],
  ["W3 at its bounds", workload("W3"), true],
  ["W4 below its bound (a bound that is wrong is also a miss)", workload("W4", { dataRequests: 99 }), false],
  [
    "W2 with zero data calls",
    workload("W2 same process", { calls: { ...zeroCalls(), access_token: 1 }, dataRequests: 0 }),
    true,
  ],
  ["W2 with a data call", workload("W2 new process", { dataRequests: 0 }), false],
])("%s", (_name, result, expected) => {
  const checks = Object.values(met([result]));
  expect(checks.length).toBeGreaterThan(0);
  expect(checks.every((value) => value)).toBe(expected);
});

function scaled(
  id: string,
  formulas: number,
  figures: Partial<ScaleFigures>,
  overrides: Partial<WorkloadResult> = {},
): WorkloadResult {
  return workload(id, {
    formulas,
    warmMsPerFormula: 0.02,
    scale: {
      coldCpuMs: formulas * 0.1,
      coldGcMs: 0,
      warmWallMs: formulas * 0.02,
      warmCpuMs: formulas * 0.02,
      warmGcMs: 0,
      rssGrowthMiBPer1000: 10,
      coldProfile: [],
      warmProfile: [],
      ...figures,
    },
    ...overrides,
  });
}

test.each([
  ["flat", {}, {}, true],
  ["cold CPU per formula grows 30 %", {}, { coldCpuMs: 30000 * 0.13 }, false],
  ["memory per formula grows 30 %", {}, { rssGrowthMiBPer1000: 13 }, false],
  ["warm time per formula grows 30 %", {}, { warmWallMs: 0 }, false],
])("W5 flatness: %s", (_name, small: Partial<ScaleFigures>, large: Partial<ScaleFigures>, expected) => {
  const warmLarge = large.warmWallMs === 0 ? 0.026 : 0.02;
  const checks = met([
    scaled("W5 1000", 1000, small),
    scaled("W5 30000", 30000, large, { warmMsPerFormula: warmLarge }),
  ]);
  const flat = Object.entries(checks).filter(([name]) => name.startsWith("W5:"));
  expect(flat).toHaveLength(3);
  expect(flat.every(([, value]) => value)).toBe(expected);
});

test.each([
  ["within every target", {}, {}, true],
  ["cold pass 1.31 x its bound", {}, { wallMs: 1310 }, false],
  ["22 MB per 1,000 formulas", { rssGrowthMiBPer1000: 21 }, {}, false],
  ["warm 0.031 ms per formula at 30,000", {}, { warmMsPerFormula: 0.031 }, false],
])(
  "W5 per size: %s",
  (_name, figures: Partial<ScaleFigures>, overrides: Partial<WorkloadResult>, expected) => {
    const checks = Object.entries(met([scaled("W5 30000", 30000, figures, { wallMs: 1300, ...overrides })]));
    expect(checks.map(([name]) => name)).toEqual([
      "W5 30000: cold pass <= 1.3 x rate-limit bound",
      "W5 30000: peak RSS growth <= 20 MB per 1,000 formulas",
      "W5 30000: warm recalculation <= 0.03 ms per formula",
    ]);
    expect(checks.every(([, value]) => value)).toBe(expected);
  },
);

function addin(functionsGzipBytes: number | null): AddinFigures {
  return {
    functionsGzipBytes,
    functionsLazyGzipBytes: 0,
    taskpaneGzipBytes: 200 * 1024,
    bundleFiles: { functions: ["functions.js", "runtime.js"], functionsLazy: [], taskpane: ["taskpane.js"] },
    functionsModules: [],
    functionsMinifiedBytes: null,
    bundleNote: "not measured: webpack exited with 2",
    startupMs: null,
    startupNote: "",
  };
}

test.each([
  ["at the budget", 50 * 1024, "50.0 KiB", true],
  ["one byte over", 50 * 1024 + 1, "50.0 KiB", false],
  ["well under", 40 * 1024, "40.0 KiB", true],
  ["not measured: a miss that says why", null, "not measured: webpack exited with 2", false],
])("functions runtime budget: %s", (_name, bytes, value, expected) => {
  expect(evaluateAddinTargets(addin(bytes))).toEqual([
    { workload: "Add-in", target: "functions runtime at start <= 50 KiB gzip", value, met: expected },
  ]);
});

test("no add-in figures, no add-in target", () => {
  expect(evaluateAddinTargets(null)).toEqual([]);
});
