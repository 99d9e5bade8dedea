// What every fault-matrix file shares: a lab (emulator + engines), the 500-formula workbook,
// the oracle (a fault-free run on the same service and clock), the table row of a fault and
// the checks every row passes. Measurements are kept per scenario and, with
// PCD_RELIABILITY_DIR set, written as JSON (RELIABILITY.md quotes them).
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { FormulaResult } from "../../../src/headless";
import {
  dataAttemptBound,
  expectCacheIntact,
  expectNoWrongNumber,
  expectRecovered,
  expectSettled,
  measure,
  type Measured,
} from "./checks";
import { coldRequests } from "./data-requests";
import { FaultLab } from "./fault-lab";
import { recalc, results, type ScenarioOutcome, type ScenarioSetup } from "./scenario-run";
import { buildWorkbook, type Workbook } from "./workbook";

/** Tuesday 10 Nov 2026, 12:00 US Central: after November's release, no maintenance. */
export const START = "2026-11-10T18:00:00Z";

export const DATA = ["series_values", "series_hist"];

export interface Matrix {
  lab: FaultLab;
  book: Workbook;
  oracle: FormulaResult[];
  /** Data calls a fault-free cold run of the whole workbook needs. */
  logicalCalls: number;
  measured: Record<string, Measured>;
}

export interface Row {
  name: string;
  setup: ScenarioSetup;
  /** What every error message of the faulted pass must say. */
  cause: RegExp;
  /**
   * Times the service may charge one code per operation over the faulted and recovery
   * passes (1 unless documented; the lab's witness never sees an answer the engine gave up on).
   */
  maxChargesPerCode?: number;
}

export async function startMatrix(): Promise<Matrix> {
  const lab = await FaultLab.start(START);
  const engine = await lab.signedInEngine();
  const book = buildWorkbook({
    energy: await engine.catalog("energy_price"),
    commodity: await engine.catalog("commodity_price"),
    industry: await engine.catalog("industry_economics"),
  });
  await lab.resetAll();
  const oracle = results(
    await recalc(
      engine,
      book.cells.map((cell) => cell.formula),
    ),
  );
  const logicalCalls = lab.exchanges.filter(
    (exchange) => exchange.operation === "series_values" || exchange.operation === "series_hist",
  ).length;
  return { lab, book, oracle, logicalCalls, measured: {} };
}

export async function closeMatrix(matrix: Matrix | undefined, reportName: string): Promise<void> {
  if (!matrix) return;
  await matrix.lab.close();
  const dir = process.env.PCD_RELIABILITY_DIR;
  if (dir) {
    const { logicalCalls, measured } = matrix;
    writeFileSync(path.join(dir, `${reportName}.json`), JSON.stringify({ logicalCalls, measured }, null, 2));
  }
}

export function faults(operations: readonly string[], fault: Record<string, unknown>): ScenarioSetup["arm"] {
  return async (faultLab) => {
    for (const operation of operations) await faultLab.admin("faults", { operation, ...fault });
  };
}

/**
 * Answers of the operations slower than the call timeout: the lab holds every such call
 * until the engine gives up on it, then the service answers (and charges) it late.
 */
export function held(operations: readonly string[]): ScenarioSetup["arm"] {
  return async (faultLab) => {
    faultLab.hooks.hold = (call) => operations.includes(call.operation);
  };
}

/** The guarantees RELIABILITY.md gives for one fault row. */
export function checkRow(matrix: Matrix, row: Row, outcome: ScenarioOutcome): void {
  const { book, oracle, logicalCalls } = matrix;
  const measured = measure(outcome, logicalCalls);
  matrix.measured[row.name] = measured;
  expectSettled(outcome, book, row.cause);
  // The fault did bite (the seeded fault generator fired at least once).
  expect(measured.failedDataAttempts + measured.errors).toBeGreaterThan(0);
  expectNoWrongNumber(outcome, book, oracle);
  expectCacheIntact(outcome);
  expect(measured.dataAttempts).toBeLessThanOrEqual(dataAttemptBound(logicalCalls));
  // The lab's witness: no code element answered twice by one operation.
  expect([...outcome.charges].filter(([, count]) => count > 1)).toEqual([]);
  // The service's own counter: one data request per part the cold keys' cells read (or
  // the documented bound).
  if (row.maxChargesPerCode === undefined) expect(measured.charged).toBe(coldRequests(book));
  else expect(measured.charged).toBeLessThanOrEqual(coldRequests(book) * row.maxChargesPerCode);
  expectRecovered(outcome, book, oracle);
}
