// The benchmark's targets (ratios, not absolute times), checked against a run's figures.
import { formatRatio, ratio } from "./ratios";
import { dataCalls, type AddinFigures, type TargetCheck, type WorkloadResult } from "./results";
import { teamChecks } from "./team-targets";

/** W1 wall time may exceed the rate-limit bound by this factor. */
export const WALL_TIME_FACTOR = 1.2;
/** W5 time and memory per formula count as flat while the largest size costs at most this times 1,000's. */
export const FLAT_FACTOR = 1.2;
/** W5 cold pass of every size against its rate-limit bound. */
export const SCALE_COLD_FACTOR = 1.3;
/** W5 warm recalculation per formula at WARM_TARGET_FORMULAS. */
export const WARM_MS_PER_FORMULA = 0.03;
export const WARM_TARGET_FORMULAS = 30_000;
/** W5 peak resident memory growth per 1,000 formulas (MB, as the target is stated). */
export const RSS_MB_PER_1000 = 20;
const MIB_IN_MB = 1.048576;
/** The functions runtime at start, gzipped: Excel loads it before any cell can calculate. */
export const FUNCTIONS_BUNDLE_MAX_KIB = 50;

function boundChecks(result: WorkloadResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const operation of ["series_values", "series_hist"] as const) {
    const measured = result.calls[operation];
    const bound = result.callsBound[operation];
    checks.push({
      workload: result.id,
      target: `${operation} calls / lower bound = 1.00`,
      value: `${measured} / ${bound} = ${formatRatio(measured, bound)}`,
      met: measured === bound,
    });
  }
  checks.push({
    workload: result.id,
    target: "data requests / lower bound = 1.00",
    value: `${result.dataRequests} / ${result.dataRequestsBound} = ${formatRatio(result.dataRequests, result.dataRequestsBound)}`,
    met: result.dataRequests === result.dataRequestsBound,
  });
  return checks;
}

function warmChecks(result: WorkloadResult): TargetCheck[] {
  return [
    {
      workload: result.id,
      target: "zero data calls and zero data requests",
      value: `${dataCalls(result.calls)} calls, ${result.dataRequests} requests`,
      met: dataCalls(result.calls) === 0 && result.dataRequests === 0,
    },
  ];
}

function wallTimeCheck(result: WorkloadResult): TargetCheck {
  const value = ratio(result.wallMs, result.rateLimitBoundMs);
  return {
    workload: result.id,
    target: `wall time <= ${WALL_TIME_FACTOR} x rate-limit bound`,
    value: `${(result.wallMs / 1000).toFixed(2)} s / ${(result.rateLimitBoundMs / 1000).toFixed(2)} s = ${formatRatio(result.wallMs, result.rateLimitBoundMs)}`,
    met: value !== null && value <= WALL_TIME_FACTOR,
  };
}

/** W5: each size's cold pass against the bound, and memory per 1,000 formulas. */
function scaleChecks(result: WorkloadResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const coldRatio = ratio(result.wallMs, result.rateLimitBoundMs);
  checks.push({
    workload: result.id,
    target: `cold pass <= ${SCALE_COLD_FACTOR} x rate-limit bound`,
    value: `${(result.wallMs / 1000).toFixed(2)} s / ${(result.rateLimitBoundMs / 1000).toFixed(2)} s = ${formatRatio(result.wallMs, result.rateLimitBoundMs)}`,
    met: coldRatio !== null && coldRatio <= SCALE_COLD_FACTOR,
  });
  if (result.scale !== undefined) {
    const mbPer1000 = result.scale.rssGrowthMiBPer1000 * MIB_IN_MB;
    checks.push({
      workload: result.id,
      target: `peak RSS growth <= ${RSS_MB_PER_1000} MB per 1,000 formulas`,
      value: `${mbPer1000.toFixed(1)} MB`,
      met: mbPer1000 <= RSS_MB_PER_1000,
    });
  }
  if (result.formulas === WARM_TARGET_FORMULAS && result.warmMsPerFormula !== null) {
    checks.push({
      workload: result.id,
      target: `warm recalculation <= ${WARM_MS_PER_FORMULA} ms per formula`,
      value: `${result.warmMsPerFormula.toFixed(4)} ms`,
      met: result.warmMsPerFormula <= WARM_MS_PER_FORMULA,
    });
  }
  return checks;
}

/** Time and memory per formula of the largest size against 1,000 formulas. */
function flatChecks(scale: readonly WorkloadResult[]): TargetCheck[] {
  const small = scale.find((result) => result.formulas === 1000);
  const large = [...scale].sort((a, b) => b.formulas - a.formulas)[0];
  if (small === undefined || large === undefined || large === small) return [];
  const sizes = `${large.formulas.toLocaleString("en-US")} vs 1,000 formulas`;
  const figures: Array<[string, (result: WorkloadResult) => number | null, string]> = [
    ["cold CPU per formula", (r) => (r.scale ? r.scale.coldCpuMs / r.formulas : null), "ms"],
    ["warm time per formula", (r) => r.warmMsPerFormula, "ms"],
    ["peak RSS growth per formula", (r) => (r.scale ? r.scale.rssGrowthMiBPer1000 : null), "MiB per 1,000"],
  ];
  const checks: TargetCheck[] = [];
  for (const [label, figure, unit] of figures) {
    const big = figure(large);
    const base = figure(small);
    if (big === null || base === null) continue;
    const value = ratio(big, base);
    checks.push({
      workload: "W5",
      target: `${label}, ${sizes} <= ${FLAT_FACTOR}`,
      value: `${big.toFixed(3)} / ${base.toFixed(3)} ${unit} = ${formatRatio(big, base)}`,
      met: value !== null && value <= FLAT_FACTOR,
    });
  }
  return checks;
}

/**
 * Checks each workload by its id prefix: W1, W3, W4, W6, W7 against bounds, W2 for zero data
 * calls, W5 for flatness, W7 for its warm members (team-targets.ts).
 */
export function evaluateTargets(results: readonly WorkloadResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const result of results) {
    if (/^W[13467]\b/.test(result.id)) checks.push(...boundChecks(result));
    if (/^W7\b/.test(result.id)) checks.push(...teamChecks(result));
    if (/^W2\b/.test(result.id)) checks.push(...warmChecks(result));
    if (/^W1\b/.test(result.id)) checks.push(wallTimeCheck(result));
    if (/^W5\b/.test(result.id)) checks.push(...scaleChecks(result));
  }
  checks.push(...flatChecks(results.filter((result) => /^W5\b/.test(result.id))));
  return checks;
}

/** The add-in's budget: the functions runtime at start within FUNCTIONS_BUNDLE_MAX_KIB (a size not measured misses it). */
export function evaluateAddinTargets(addin: AddinFigures | null): TargetCheck[] {
  if (addin === null) return [];
  const bytes = addin.functionsGzipBytes;
  return [
    {
      workload: "Add-in",
      target: `functions runtime at start <= ${FUNCTIONS_BUNDLE_MAX_KIB} KiB gzip`,
      value: bytes === null ? addin.bundleNote : `${(bytes / 1024).toFixed(1)} KiB`,
      met: bytes !== null && bytes <= FUNCTIONS_BUNDLE_MAX_KIB * 1024,
    },
  ];
}
