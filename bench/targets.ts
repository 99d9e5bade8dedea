// The targets (ratios, not absolute times), checked against a run's figures.
import { formatRatio, ratio } from "./ratios";
import { dataCalls, type TargetCheck, type WorkloadResult } from "./results";

/** W1 wall time may exceed the rate-limit bound by this factor. */
export const WALL_TIME_FACTOR = 1.2;
/** W5 time per formula counts as flat while 10,000 formulas cost at most this times 1,000's. */
export const FLAT_FACTOR = 1.25;

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

function flatChecks(scale: readonly WorkloadResult[]): TargetCheck[] {
  const small = scale.find((result) => result.formulas === 1000);
  const large = scale.find((result) => result.formulas === 10000);
  if (small === undefined || large === undefined) return [];
  const perFormula = (result: WorkloadResult): number => result.wallMs / result.formulas;
  const checks: TargetCheck[] = [];
  const cold = ratio(perFormula(large), perFormula(small));
  checks.push({
    workload: "W5",
    target: `cold time per formula, 10,000 vs 1,000 formulas <= ${FLAT_FACTOR}`,
    value: `${perFormula(large).toFixed(3)} / ${perFormula(small).toFixed(3)} ms = ${formatRatio(perFormula(large), perFormula(small))}`,
    met: cold !== null && cold <= FLAT_FACTOR,
  });
  if (small.warmMsPerFormula !== null && large.warmMsPerFormula !== null) {
    const warm = ratio(large.warmMsPerFormula, small.warmMsPerFormula);
    checks.push({
      workload: "W5",
      target: `cached time per formula, 10,000 vs 1,000 formulas <= ${FLAT_FACTOR}`,
      value: `${large.warmMsPerFormula.toFixed(3)} / ${small.warmMsPerFormula.toFixed(3)} ms = ${formatRatio(large.warmMsPerFormula, small.warmMsPerFormula)}`,
      met: warm !== null && warm <= FLAT_FACTOR,
    });
  }
  return checks;
}

/** Checks each workload by its id prefix: W1, W3, W4, W6 against bounds, W2 for zero data calls, W5 for flatness. */
export function evaluateTargets(results: readonly WorkloadResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const result of results) {
    if (/^W[1346]\b/.test(result.id)) checks.push(...boundChecks(result));
    if (/^W2\b/.test(result.id)) checks.push(...warmChecks(result));
    if (/^W1\b/.test(result.id)) checks.push(wallTimeCheck(result));
  }
  checks.push(...flatChecks(results.filter((result) => /^W5\b/.test(result.id))));
  return checks;
}
