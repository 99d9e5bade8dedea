import { zeroCalls } from "../../bench/bounds";
import type { WorkloadResult } from "../../bench/results";
import { evaluateTargets } from "../../bench/targets";

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

test.each([
  ["flat", 1000, 10000, 1.0, 1.2, true],
  ["cold time per formula grows 30 %", 1000, 13000, 1.0, 1.0, false],
  ["cached time per formula grows 30 %", 1000, 10000, 1.0, 1.3, false],
])("W5 %s", (_name, smallMs, largeMs, smallWarm, largeWarm, expected) => {
  const checks = met([
    workload("W5 1000", { formulas: 1000, wallMs: smallMs, warmMsPerFormula: smallWarm }),
    workload("W5 10000", { formulas: 10000, wallMs: largeMs, warmMsPerFormula: largeWarm }),
  ]);
  const flat = Object.entries(checks).filter(([name]) => name.startsWith("W5:"));
  expect(flat).toHaveLength(2);
  expect(flat.every(([, value]) => value)).toBe(expected);
});
