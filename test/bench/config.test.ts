import { pinClock } from "../../bench/clock";
import { FULL_RUN, parseBenchArgs } from "../../bench/config";
import { median } from "../../bench/startup-time";

describe("parseBenchArgs", () => {
  test("no options is the full run BENCHMARKS.md describes", () => {
    expect(parseBenchArgs([], "/tmp/out")).toEqual({ ...FULL_RUN, outDir: "/tmp/out" });
    expect(FULL_RUN).toMatchObject({
      workbookFormulas: 2000,
      scaleSizes: [1000, 10000, 30000, 100000],
      stormGapMs: 50,
      team: true,
      teamMembers: 10,
      teamFormulas: 200,
    });
  });

  test.each([
    [["--formulas", "30"], { workbookFormulas: 30 }],
    [["--sizes", "10,20"], { scaleSizes: [10, 20] }],
    [["--sizes", ""], { scaleSizes: [] }],
    [["--naive-sample", "0"], { naiveSample: 0 }],
    [["--latency", "0", "--per-code", "0"], { latencyMs: 0, latencyPerCodeMs: 0 }],
    [["--no-addin", "--no-new-process"], { addin: false, newProcess: false }],
    [["--only-scale"], { onlyScale: true, addin: false }],
    [["--no-profile"], { profile: false }],
    [["--no-memory"], { memory: false }],
    [["--only-memory"], { onlyMemory: true, addin: false, memory: true }],
    [
      ["--shape", "spec", "--need-series", "0", "--no-shape-comparison"],
      { shape: "spec", needSeries: 0, compareShapes: false },
    ],
    [["--seed=3", "--seed", "4"], { seed: 4 }],
    [["--only-team"], { onlyTeam: true, team: true, addin: false }],
    [["--no-team"], { team: false, onlyTeam: false }],
    [["--team-members", "3", "--team-formulas", "40"], { teamMembers: 3, teamFormulas: 40 }],
  ])("%j", (args, expected) => {
    expect(parseBenchArgs(args, "/tmp/out")).toMatchObject(expected);
  });

  test.each([
    [["--formulas", "0"], "--formulas needs a positive integer, got '0'"],
    [["--formulas"], /'--formulas <value>' argument missing/],
    [["--sizes", "10,x"], "--sizes needs a positive integer, got 'x'"],
    [["--latency=-5"], "--latency needs a non-negative integer, got '-5'"],
    // A value that looks like a flag is refused: a forgotten value does not swallow the next flag.
    [["--latency", "-5"], /'--latency' argument is ambiguous/],
    [["--formulas", "--no-addin"], /'--formulas' argument is ambiguous/],
    [["--fast"], "Unknown option '--fast'"],
    [["--fast"], "Options: --formulas N, --sizes a,b,c"],
    [["--no-addin=yes"], /'--no-addin' does not take an argument/],
    [["W1"], /Unexpected argument 'W1'/],
    [["--team-members", "0"], "--team-members needs a positive integer, got '0'"],
    [["--team-formulas", "1"], "--team-formulas needs at least 2 (shared and own cells)"],
  ])("%j is rejected", (args, message) => {
    expect(() => parseBenchArgs(args, "/tmp/out")).toThrow(message);
  });
});

test("pinClock shifts the real clock to the pinned instant", () => {
  const pinned = pinClock("2026-11-10T16:00:00Z", Date.parse("2026-11-22T00:00:00Z"));
  expect(pinned.offsetMs).toBe(Date.parse("2026-11-10T16:00:00Z") - Date.parse("2026-11-22T00:00:00Z"));
  expect(() => pinClock("yesterday")).toThrow("'yesterday'");
});

test.each([
  [[5], 5],
  [[3, 1, 2], 2],
  [[4, 1, 3, 2], 2.5],
])("median of %j", (values, expected) => {
  expect(median(values)).toBe(expected);
});
