// The memory budgets' verdict (bench/memory-budget.ts) on fixture numbers: the median of the
// samples against the bound, the target rows, and the figures an --only-memory run replaces.
import { exceededBudgets, judgeBudget, median, memoryTargets, withMemory } from "../../bench/memory-budget";
import type { BenchResults } from "../../bench/results";

const BUDGET = { id: "cached-point", title: "a cached point", unit: "point", bound: 16 };

test.each<[string, number[], number]>([
  ["one sample", [12], 12],
  ["an odd count, unsorted", [15, 9, 30], 15],
  ["an even count: the mean of the middle two", [10, 14, 12, 100], 13],
  ["a negative sample (a collection during the measure)", [-7, 51, 47, 52, 52], 51],
])("median of %s", (_case, samples, expected) => {
  expect(median(samples)).toBe(expected);
});

test("a median of no samples is an error, not a figure", () => {
  expect(() => median([])).toThrow(/at least one sample/);
});

test.each<[string, number[], boolean]>([
  ["under the bound", [13, 14, 13], true],
  ["at the bound", [16, 16, 17], true],
  ["over the bound", [17, 18, 16.5], false],
  ["one disturbed sample does not decide", [13, 90, 14], true],
  ["most samples over decide", [15, 40, 41], false],
])("a budget %s: met is %s", (_case, samples, met) => {
  const figure = judgeBudget(BUDGET, samples);
  expect(figure.met).toBe(met);
  expect(exceededBudgets([figure])).toEqual(met ? [] : [figure]);
  expect(memoryTargets([figure])).toEqual([
    {
      workload: "Memory",
      target: "a cached point <= 16 bytes per point",
      value: `${median(samples).toFixed(1)} bytes (median of ${samples.length})`,
      met,
    },
  ]);
});

test("--only-memory keeps the workloads' targets and replaces the memory rows", () => {
  const workloadCheck = {
    workload: "W1",
    target: "data requests / lower bound = 1.00",
    value: "1",
    met: true,
  };
  const previous = {
    memory: [judgeBudget(BUDGET, [30])],
    targets: [workloadCheck, ...memoryTargets([judgeBudget(BUDGET, [30])])],
  } as unknown as BenchResults;
  const figure = judgeBudget(BUDGET, [12]);
  const next = withMemory(previous, [figure]);
  expect(next.memory).toEqual([figure]);
  expect(next.targets).toEqual([workloadCheck, ...memoryTargets([figure])]);
});
