// What one benchmark run does: sizes, latency, seed and which parts to run.
import { parseArgs } from "node:util";
import type { ServiceShape } from "./bounds";

export interface BenchConfig {
  seed: number;
  /** Emulator latency per call and per requested code (a realistic service, default 200 + 2). */
  latencyMs: number;
  latencyPerCodeMs: number;
  /** W1..W4 workbook size. */
  workbookFormulas: number;
  /** W5 sizes. */
  scaleSizes: number[];
  /** Cells the naive client runs (scaled linearly to the workbook); 0 skips the baseline. */
  naiveSample: number;
  /** W4: the second recalculation starts this long after the first. */
  stormGapMs: number;
  /** W2's new-process run (spawns tsx). */
  newProcess: boolean;
  /** Bundle sizes and start-up time of the add-in (builds with webpack). */
  addin: boolean;
  /** Scratch folder for formula and cache files. */
  outDir: string;
  passTimeoutMs: number;
  /** The service's shape: real (the default, what users have) or spec (the description's letter). */
  shape: ServiceShape;
  /** Series per need workbook (W6); 0 skips them. */
  needSeries: number;
  /** Also runs W1, W3 and W6 on the other shape, reported beside (not as targets). */
  compareShapes: boolean;
  /** W5 only (no naive baseline, W1-W4 or add-in). */
  onlyScale: boolean;
  /** A second, profiled session per W5 size for the top CPU entries (the figures come from the unprofiled one). */
  profile: boolean;
  /** The memory budgets only (memory-budgets.ts): no emulator, no workloads. */
  onlyMemory: boolean;
  /** The memory budgets (they need V8's gc: `node --expose-gc`, as `npm run bench` starts). */
  memory: boolean;
  /** W7: a team through the gateway (bench/team.ts), after the other workloads. */
  team: boolean;
  /** W7 only, into the last run's results (like `onlyMemory`). */
  onlyTeam: boolean;
  /** W7's members and formulas per member (half shared by all, half their own). */
  teamMembers: number;
  teamFormulas: number;
  /** How long W7 replays the members' requests against the warm gateway. */
  teamLoadMs: number;
}

export const FULL_RUN: Omit<BenchConfig, "outDir"> = {
  seed: 7,
  latencyMs: 200,
  latencyPerCodeMs: 2,
  workbookFormulas: 2000,
  scaleSizes: [1000, 10000, 30000, 100000],
  naiveSample: 200,
  stormGapMs: 50,
  newProcess: true,
  addin: true,
  // 100,000 formulas need about a minute cold at the rate limit; room for a loaded machine.
  passTimeoutMs: 600_000,
  onlyScale: false,
  profile: true,
  shape: "real",
  needSeries: 120,
  compareShapes: true,
  onlyMemory: false,
  memory: true,
  team: true,
  onlyTeam: false,
  teamMembers: 10,
  teamFormulas: 200,
  teamLoadMs: 5000,
};

function positiveInteger(flag: string, text: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new Error(`${flag} needs a ${allowZero ? "non-negative" : "positive"} integer, got '${text}'`);
  }
  return value;
}

const FLAGS = {
  formulas: { type: "string" },
  sizes: { type: "string" },
  "naive-sample": { type: "string" },
  latency: { type: "string" },
  "per-code": { type: "string" },
  seed: { type: "string" },
  shape: { type: "string" },
  "need-series": { type: "string" },
  "no-addin": { type: "boolean" },
  "no-new-process": { type: "boolean" },
  "only-scale": { type: "boolean" },
  "no-profile": { type: "boolean" },
  "only-memory": { type: "boolean" },
  "no-memory": { type: "boolean" },
  "no-shape-comparison": { type: "boolean" },
  "only-team": { type: "boolean" },
  "no-team": { type: "boolean" },
  "team-members": { type: "string" },
  "team-formulas": { type: "string" },
} as const;

const OPTIONS_HELP =
  "Options: --formulas N, --sizes a,b,c, --naive-sample N, --latency MS, --per-code MS, --seed N, --no-addin, --no-new-process, --only-scale, --no-profile, --only-memory, --no-memory, --shape real|spec, --need-series N, --no-shape-comparison, --only-team, --no-team, --team-members N, --team-formulas N";

/** `npm run bench -- [--formulas N] [--sizes a,b] [--naive-sample N] [--latency MS] [--per-code MS] [--seed N] [--no-addin] [--no-new-process] [--only-scale] [--no-profile] [--only-memory] [--no-memory] [--shape real|spec] [--need-series N] [--no-shape-comparison] [--only-team] [--no-team] [--team-members N] [--team-formulas N]` */
export function parseBenchArgs(args: readonly string[], outDir: string): BenchConfig {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${OPTIONS_HELP}`);
  }
  const config: BenchConfig = { ...FULL_RUN, outDir };
  if (values.formulas !== undefined) config.workbookFormulas = positiveInteger("--formulas", values.formulas);
  if (values.sizes !== undefined) {
    config.scaleSizes =
      values.sizes === "" ? [] : values.sizes.split(",").map((size) => positiveInteger("--sizes", size));
  }
  if (values["naive-sample"] !== undefined) {
    config.naiveSample = positiveInteger("--naive-sample", values["naive-sample"], true);
  }
  if (values.latency !== undefined) config.latencyMs = positiveInteger("--latency", values.latency, true);
  if (values["per-code"] !== undefined) {
    config.latencyPerCodeMs = positiveInteger("--per-code", values["per-code"], true);
  }
  if (values.seed !== undefined) config.seed = positiveInteger("--seed", values.seed, true);
  if (values.shape !== undefined) {
    const shape = values.shape;
    if (shape !== "real" && shape !== "spec") throw new Error(`--shape needs real or spec, got '${shape}'`);
    config.shape = shape;
  }
  if (values["need-series"] !== undefined) {
    config.needSeries = positiveInteger("--need-series", values["need-series"], true);
  }
  if (values["no-addin"] === true) config.addin = false;
  if (values["no-new-process"] === true) config.newProcess = false;
  if (values["no-shape-comparison"] === true) config.compareShapes = false;
  if (values["only-scale"] === true) {
    config.onlyScale = true;
    config.addin = false;
  }
  if (values["no-profile"] === true) config.profile = false;
  if (values["no-memory"] === true) config.memory = false;
  if (values["only-memory"] === true) {
    config.onlyMemory = true;
    config.addin = false;
  }
  if (values["team-members"] !== undefined) {
    config.teamMembers = positiveInteger("--team-members", values["team-members"]);
  }
  if (values["team-formulas"] !== undefined) {
    config.teamFormulas = positiveInteger("--team-formulas", values["team-formulas"]);
    if (config.teamFormulas < 2) throw new Error("--team-formulas needs at least 2 (shared and own cells)");
  }
  if (values["no-team"] === true) config.team = false;
  if (values["only-team"] === true) {
    config.onlyTeam = true;
    config.team = true;
    config.addin = false;
  }
  return config;
}
