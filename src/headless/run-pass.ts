// One Excel-like recalculation: every formula is invoked before any result can settle
// (computations are asynchronous), then the pass waits until every cell has a result and
// the engine is idle with no cell still changing, and reports each cell's latest result.
import type { Engine, EngineStats } from "../core/engine-api";
import type { Operation } from "../core/model";
import { toCellOutput, type CellOutput } from "./cell-output";
import { FormulaSyntaxError, parseFormula } from "./formula";
import { RecordingInvocation } from "./invocation";
import { arityError, invokeFunction } from "./invoke";

export type FormulaResult = { formula: string } & CellOutput;

export interface PassReport {
  results: FormulaResult[];
  /** HTTP calls this pass sent, per operation (retries included). */
  http: Record<Operation, number>;
  /** Data requests (codes) this pass sent. */
  dataRequests: number;
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

export async function runPass(
  engine: Engine,
  formulas: readonly string[],
  timeoutMs: number,
): Promise<{ report: PassReport; cells: PassCells }> {
  const before = engine.stats();
  const started = performance.now();
  const cells = formulas.map(startCell);
  const invocations = cells.flatMap((cell) => (cell.invocation ? [cell.invocation] : []));

  const settled = await withDeadline(waitUntilSettled(engine, invocations), timeoutMs);
  const after = engine.stats();
  const report: PassReport = {
    results: cells.map((cell) => ({ formula: cell.formula, ...outputOf(cell) })),
    ...statsDelta(before, after),
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

async function waitUntilSettled(engine: Engine, invocations: RecordingInvocation[]): Promise<void> {
  await Promise.all(invocations.map((invocation) => invocation.settled()));
  // Results may still change: cells re-run when the engine reports new data for their keys.
  let seen = -1;
  for (;;) {
    await engine.idle();
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const count = invocations.reduce((sum, invocation) => sum + invocation.resultCount, 0);
    if (count === seen) return;
    seen = count;
  }
}

async function withDeadline(work: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function statsDelta(before: EngineStats, after: EngineStats): Pick<PassReport, "http" | "dataRequests"> {
  const http = { ...after.http };
  for (const operation of Object.keys(http) as Operation[]) {
    http[operation] = after.http[operation] - (before.http[operation] ?? 0);
  }
  return { http, dataRequests: after.dataRequests - before.dataRequests };
}
