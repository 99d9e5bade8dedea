// What every workload shares: the run's context (service, clock, catalog, call log), a
// measured step with the call log's account of it, an engine session, and the
// WorkloadResult built from a step, its passes and its bound.
import type { Logger } from "../src/core/environment";
import type { PassReport } from "../src/headless/run-pass";
import {
  callLatencyMs,
  largestCallCodes,
  OPERATIONS,
  rateLimitBoundMs,
  zeroCalls,
  type Bound,
  type CallCounts,
} from "./bounds";
import { CallLog, type LoggedCall } from "./call-log";
import type { CatalogSeries } from "./catalog";
import type { PinnedClock } from "./clock";
import type { BenchConfig } from "./config";
import { EngineSession, measure as measureStep, type Measured } from "./engine-session";
import { describeGroupExcess, groupExcess } from "./group-check";
import type { BenchRequestKey } from "./request-keys";
import type { WorkloadResult } from "./results";
import type { ServiceAddress } from "./service";
import type { Workbook } from "./workloads";

export interface BenchContext {
  config: BenchConfig;
  service: ServiceAddress;
  clock: PinnedClock;
  /** Series Info as of the last release the run published (updated after W3). */
  catalog: CatalogSeries[];
  byCode: ReadonlyMap<string, CatalogSeries>;
  log: Logger;
  callLog: CallLog;
}

export interface Logged<T> extends Measured<T> {
  /** How the data calls of this step went (from the call log). */
  callSummary: string;
  calls: LoggedCall[];
}

/** measure() plus the call log's account of the step. */
export async function measure<T>(context: BenchContext, step: () => Promise<T>): Promise<Logged<T>> {
  const mark = context.callLog.calls.length;
  const stepStart = context.callLog.now();
  const measured = await measureStep(context.service.baseUrl, step);
  const calls = context.callLog.since(mark);
  return { ...measured, calls, callSummary: CallLog.summary(calls, stepStart) };
}

export function openSession(context: BenchContext): Promise<EngineSession> {
  return EngineSession.open({
    service: context.service,
    clock: context.clock.clock,
    log: context.log,
    passTimeoutMs: context.config.passTimeoutMs,
    callLog: context.callLog,
  });
}

export function cellErrors(report: PassReport): number {
  return report.results.filter((result) => "error" in result).length;
}

export function sumCalls(...reports: PassReport[]): CallCounts {
  const total = zeroCalls();
  for (const report of reports) {
    for (const operation of OPERATIONS) total[operation] += report.http[operation] ?? 0;
  }
  return total;
}

export function boundTimeMs(context: BenchContext, bound: Bound): number {
  const latency = { baseMs: context.config.latencyMs, perCodeMs: context.config.latencyPerCodeMs };
  return rateLimitBoundMs(bound.calls, callLatencyMs(latency, largestCallCodes(bound)));
}

export interface ResultInput {
  id: string;
  title: string;
  workbook: Workbook;
  keys: readonly BenchRequestKey[];
  measured: Logged<unknown>;
  bound: Bound;
  passes: PassReport[];
  notes?: string[];
}

export function result(context: BenchContext, input: ResultInput): WorkloadResult {
  const errors = input.passes.reduce((sum, pass) => sum + cellErrors(pass), 0);
  const notes = [...(input.notes ?? [])];
  if (input.measured.callSummary !== "") notes.push(input.measured.callSummary);
  const runnerData = sumCalls(...input.passes);
  const serviceData = input.measured.service.calls;
  const crossChecked = /^W[15]\b/.test(input.id);
  if (
    crossChecked &&
    (runnerData.series_hist !== serviceData.series_hist ||
      runnerData.series_values !== serviceData.series_values)
  ) {
    notes.push(
      `the runner counted ${runnerData.series_hist} History and ${runnerData.series_values} Values calls, the service ${serviceData.series_hist} and ${serviceData.series_values}`,
    );
  }
  const excess = groupExcess(input.measured.calls, input.bound, context.byCode);
  if (excess.length > 0) notes.push(describeGroupExcess(excess));
  if (errors > 0) {
    const sample = input.passes.flatMap((pass) => pass.results).find((cell) => "error" in cell);
    notes.push(`${errors} cells ended in an error, e.g. ${JSON.stringify(sample).slice(0, 200)}`);
  }
  return {
    id: input.id,
    title: input.title,
    formulas: input.workbook.formulas.length,
    distinctKeys: input.keys.length,
    composition: input.workbook.composition,
    calls: input.measured.service.calls,
    runnerCalls: sumCalls(...input.passes),
    callsBound: input.bound.calls,
    dataRequests: input.measured.service.dataRequests,
    dataRequestsBound: input.bound.dataRequests,
    wallMs: input.measured.wallMs,
    rateLimitBoundMs: boundTimeMs(context, input.bound),
    cpuMsPerCachedFormula: null,
    warmMsPerFormula: null,
    peakRssMiB: input.measured.peakRssMiB,
    rssGrowthMiB: input.measured.rssGrowthMiB,
    cpuMs: input.measured.cpuMs,
    cellErrors: errors,
    naive: null,
    notes,
  };
}

export function texts(workbook: Workbook): string[] {
  return workbook.formulas.map((formula) => formula.text);
}
