import type { BenchResults, TargetCheck } from "../../bench/results";
import { withTeam } from "../../bench/team-results";
import { teamFigures, teamWorkload } from "./team-fixtures";

const check = (workload: string, target: string): TargetCheck => ({
  workload,
  target,
  value: "v",
  met: true,
});

function previous(): BenchResults {
  return {
    generatedAt: "2026-11-26T16:00:00.000Z",
    durationMs: 290_000,
    machine: teamFigures().machine,
    settings: {
      seed: 7,
      latencyMs: 200,
      latencyPerCodeMs: 2,
      naiveSample: 200,
      w1Formulas: 2000,
      scaleSizes: [],
    },
    workloads: [
      { ...teamWorkload(), id: "W1", team: undefined },
      { ...teamWorkload(), formulas: 10 },
    ],
    addin: null,
    targets: [check("W1", "bound"), check("W7", "old"), check("Add-in", "size"), check("Memory", "budget")],
    failures: [
      { workload: "W5 100", error: "boom" },
      { workload: "W7 load Postgres", error: "old failure" },
    ],
  };
}

test("withTeam puts this W7 in place of the earlier one and keeps everything else as measured", () => {
  const team = teamWorkload();
  const merged = withTeam(previous(), [team], [check("W7", "new")], [{ workload: "W7 warm", error: "slow" }]);
  expect(merged.workloads.map((result) => [result.id, result.formulas])).toEqual([
    ["W1", 2000],
    ["W7", 2000],
  ]);
  expect(merged.targets.map((entry) => `${entry.workload}: ${entry.target}`)).toEqual([
    "W1: bound",
    "W7: new",
    "Add-in: size",
    "Memory: budget",
  ]);
  expect(merged.failures).toEqual([
    { workload: "W5 100", error: "boom" },
    { workload: "W7 warm", error: "slow" },
  ]);
  expect(merged.generatedAt).toBe("2026-11-26T16:00:00.000Z");
});

test("withTeam with a failed W7 drops the earlier figures and lists the failure", () => {
  const merged = withTeam(previous(), [], [], [{ workload: "W7", error: "no gateway" }]);
  expect(merged.workloads.map((result) => result.id)).toEqual(["W1"]);
  expect(merged.targets.map((entry) => entry.workload)).toEqual(["W1", "Add-in", "Memory"]);
  expect(merged.failures.map((failure) => failure.workload)).toEqual(["W5 100", "W7"]);
});

test("withTeam appends W7's targets when the earlier run had neither add-in nor memory rows", () => {
  const earlier = { ...previous(), targets: [check("W1", "bound")] };
  expect(withTeam(earlier, [], [check("W7", "new")], []).targets.map((entry) => entry.workload)).toEqual([
    "W1",
    "W7",
  ]);
});
