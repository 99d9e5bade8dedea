// One Excel-like recalculation: every formula is invoked before any result can settle
// (computations are asynchronous), then the pass waits until every cell has a result and
// the engine is idle with no cell still changing, and reports each cell's latest result.
import type { Engine } from "../core/engine-api";
import { toCellOutput, type CellOutput } from "./cell-output";
import { RunDeadline } from "./deadline";
import { FormulaSyntaxError, parseFormula } from "./formula";
import { RecordingInvocation } from "./invocation";
import { arityError, invokeFunction } from "./invoke";
import { engineStatsMeter, usageBetween, type Usage, type UsageMeter } from "./usage-meter";

export type FormulaResult = { formula: string } & CellOutput;

/**
 * http: requests this pass sent per operation (retries and token renewals included);
 * dataRequests: what the service confirmed charging; dataRequestsUnconfirmed: data
 * requests sent with no answer when the pass ended (the service may have charged them).
 */
export interface PassReport extends Usage {
  results: FormulaResult[];
  ms: number;
  /** Present when the pass did not settle in time: the formulas still without a result. */
  stuck?: string[];
}

export interface PassCells {
  invocations: RecordingInvocation[];
}

interface Cell {
  formula: string;
  invocation?: RecordingInvocation;
  fixed?: CellOutput;
}

/** Quiet time without a new result, after the engine reports idle, before the pass ends. */
const QUIET_MS = 30;

/**
 * Runs one pass; it ends unsettled when the deadline passes (a number: that many real
 * milliseconds from now). The meter counts its calls (default: the engine's own
 * statistics, which cannot tell unconfirmed data requests).
 */
export async function runPass(
  engine: Engine,
  formulas: readonly string[],
  deadline: RunDeadline | number,
  meter: UsageMeter = engineStatsMeter(() => engine.stats()),
): Promise<{ report: PassReport; cells: PassCells }> {
  const before = meter.read();
  const started = performance.now();
  const cells = formulas.map(startCell);
  const invocations = cells.flatMap((cell) => (cell.invocation ? [cell.invocation] : []));

  const stop = { requested: false };
  let settled: boolean;
  const passDeadline = typeof deadline === "number" ? new RunDeadline(deadline) : deadline;
  try {
    settled = (await passDeadline.race(waitUntilSettled(engine, invocations, stop))).done;
  } finally {
    // A deadline of the pass's own ends with it; a run's deadline is the run's to stop.
    if (passDeadline !== deadline) passDeadline.cancel();
  }
  stop.requested = true;
  const report: PassReport = {
    results: cells.map((cell) => ({ formula: cell.formula, ...outputOf(cell) })),
    ...usageBetween(before, meter.read()),
    ms: Math.round(performance.now() - started),
  };
  if (!settled) {
    report.stuck = cells
      .filter((cell) => cell.invocation && !cell.invocation.hasResult)
      .map((c) => c.formula);
  }
  return { report, cells: { invocations } };
}

function startCell(formula: string): Cell {
  const parsed = parseFormula(formula);
  if (parsed instanceof FormulaSyntaxError) return { formula, fixed: syntaxError(parsed.message) };
  const tooMany = arityError(parsed.name, parsed.args);
  if (tooMany) return { formula, fixed: syntaxError(tooMany) };
  const invocation = new RecordingInvocation();
  try {
    invokeFunction(parsed.name, parsed.args, invocation);
  } catch (error) {
    return { formula, fixed: { error: { type: "#N/A", message: `PCD internal error: ${String(error)}` } } };
  }
  return { formula, invocation };
}

function syntaxError(message: string): CellOutput {
  return { error: { type: "#NAME?", message } };
}

function outputOf(cell: Cell): CellOutput {
  if (cell.fixed) return cell.fixed;
  if (!cell.invocation?.hasResult) {
    return { error: { type: "#BUSY!", message: "The formula had no result when the pass timed out." } };
  }
  return toCellOutput(cell.invocation.latest);
}

/** Ends when the cells settle, or soon after stop is requested (the deadline passed). */
async function waitUntilSettled(
  engine: Engine,
  invocations: RecordingInvocation[],
  stop: { requested: boolean },
): Promise<void> {
  await Promise.all(invocations.map((invocation) => invocation.settled()));
  // Results may still change: cells re-run when the engine reports new data for their keys.
  // The pass ends after a quiet time that began with the engine idle and saw no new result
  // since the count before it (counted from here, so one quiet time suffices when none came).
  let seen = resultCount(invocations);
  while (!stop.requested) {
    await engine.idle();
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const count = resultCount(invocations);
    if (count === seen) return;
    seen = count;
  }
}

function resultCount(invocations: readonly RecordingInvocation[]): number {
  return invocations.reduce((sum, invocation) => sum + invocation.resultCount, 0);
}
