// What one benchmark run does: sizes, latency, seed and which parts to run.
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
};

function positiveInteger(flag: string, text: string | undefined, allowZero = false): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new Error(
      `${flag} needs a ${allowZero ? "non-negative" : "positive"} integer, got '${String(text)}'`,
    );
  }
  return value;
}

/** `npm run bench -- [--formulas N] [--sizes a,b] [--naive-sample N] [--latency MS] [--per-code MS] [--seed N] [--no-addin] [--no-new-process] [--only-scale] [--no-profile] [--shape real|spec] [--need-series N] [--no-shape-comparison]` */
export function parseBenchArgs(args: readonly string[], outDir: string): BenchConfig {
  const config: BenchConfig = { ...FULL_RUN, outDir };
  for (let index = 0; index < args.length; index += 1) {
    const flag = args[index] as string;
    const next = (): string | undefined => args[++index];
    switch (flag) {
      case "--formulas":
        config.workbookFormulas = positiveInteger(flag, next());
        break;
      case "--sizes": {
        const text = next() ?? "";
        config.scaleSizes = text === "" ? [] : text.split(",").map((size) => positiveInteger(flag, size));
        break;
      }
      case "--naive-sample":
        config.naiveSample = positiveInteger(flag, next(), true);
        break;
      case "--latency":
        config.latencyMs = positiveInteger(flag, next(), true);
        break;
      case "--per-code":
        config.latencyPerCodeMs = positiveInteger(flag, next(), true);
        break;
      case "--seed":
        config.seed = positiveInteger(flag, next(), true);
        break;
      case "--no-addin":
        config.addin = false;
        break;
      case "--no-new-process":
        config.newProcess = false;
        break;
      case "--shape": {
        const shape = next();
        if (shape !== "real" && shape !== "spec")
          throw new Error(`--shape needs real or spec, got '${String(shape)}'`);
        config.shape = shape;
        break;
      }
      case "--need-series":
        config.needSeries = positiveInteger(flag, next(), true);
        break;
      case "--no-shape-comparison":
        config.compareShapes = false;
        break;
      case "--only-scale":
        config.onlyScale = true;
        config.addin = false;
        break;
      case "--no-profile":
        config.profile = false;
        break;
      default:
        throw new Error(
          `Unknown option '${flag}'. Options: --formulas N, --sizes a,b,c, --naive-sample N, --latency MS, --per-code MS, --seed N, --no-addin, --no-new-process, --only-scale, --no-profile, --shape real|spec, --need-series N, --no-shape-comparison`,
        );
    }
  }
  return config;
}
