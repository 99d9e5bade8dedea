// Each fault row's guarantees (RELIABILITY.md) as checks of a scenario's outcome. Each returns what it
// measured so the suite can report it (RELIABILITY.md quotes these numbers).
import type { FormulaResult } from "../../../src/headless";
import { attempts, results, totalCharged, type ScenarioOutcome } from "./scenario-run";
import type { Workbook } from "./workbook";
import { RETRY } from "./fault-lab";

export interface Measured {
  cells: number;
  values: number;
  errors: number;
  /** Distinct error messages of the faulted pass (for the report). */
  messages: string[];
  dataAttempts: number;
  /** Data attempts the fault answered (no answer, or a status other than 2xx). */
  failedDataAttempts: number;
  dataAttemptBound: number;
  tokenRequests: number;
  /** Data requests the service charged over the faulted and recovery passes. */
  charged: number;
  /** Of which the recovery pass. */
  recoveryCharged: number;
  distinctCharged: number;
  recoveredValues: number;
}

function isBusy(result: FormulaResult): boolean {
  return "error" in result && result.error.type === "#BUSY!";
}

/** Every cell has a result: a value, or an error message that names the fault's cause. */
export function expectSettled(outcome: ScenarioOutcome, book: Workbook, cause: RegExp): void {
  expect(outcome.faulted.settled).toBe(true);
  const faulted = results(outcome.faulted);
  expect(faulted).toHaveLength(book.cells.length);
  expect(faulted.filter(isBusy)).toEqual([]);
  const unexplained = faulted.filter((result) => "error" in result && !cause.test(result.error.message));
  expect(unexplained).toEqual([]);
}

/**
 * No wrong number: every cell that shows a value shows the oracle's (a fault-free run on
 * the same service and clock); cached series and catalog cells show their value whatever
 * the fault. LIMITS cells are excluded from equality (what remains changes as a run spends).
 */
export function expectNoWrongNumber(
  outcome: ScenarioOutcome,
  book: Workbook,
  oracle: readonly FormulaResult[],
  options: { cachedMustShow: boolean } = { cachedMustShow: true },
): void {
  const faulted = results(outcome.faulted);
  const wrong: string[] = [];
  const missing: string[] = [];
  book.cells.forEach((cell, index) => {
    const result = faulted[index]!;
    if (cell.source.kind === "limits") return;
    if ("value" in result) {
      if (
        JSON.stringify(result.value) !==
        JSON.stringify(oracle[index] && "value" in oracle[index] ? oracle[index].value : undefined)
      ) {
        wrong.push(cell.formula);
      }
      return;
    }
    const cached = cell.source.kind === "catalog" || book.warmSeries.has(cell.source.series);
    if (cached && options.cachedMustShow) missing.push(`${cell.formula}: ${result.error.message}`);
  });
  expect(wrong).toEqual([]);
  expect(missing).toEqual([]);
}

/** No cached entry lost or changed by the fault, nor by the recovery (no release in between). */
export function expectCacheIntact(outcome: ScenarioOutcome): void {
  expect(outcome.cacheBefore.size).toBeGreaterThan(0);
  for (const [key, entry] of outcome.cacheBefore) {
    expect(outcome.cacheAfterFault.get(key)).toBe(entry);
    expect(outcome.cacheAfterRecovery.get(key)).toBe(entry);
  }
}

/** Once the fault clears, one recalculation shows every cell as the oracle does. */
export function expectRecovered(
  outcome: ScenarioOutcome,
  book: Workbook,
  oracle: readonly FormulaResult[],
): void {
  expect(outcome.recovered.settled).toBe(true);
  const recovered = results(outcome.recovered);
  const different = book.cells.flatMap((cell, index) => {
    const result = recovered[index]!;
    if (cell.source.kind === "limits")
      return "value" in result ? [] : [`${cell.formula}: ${result.error.message}`];
    return JSON.stringify(result) === JSON.stringify(oracle[index]) ? [] : [cell.formula];
  });
  expect(different).toEqual([]);
}

/**
 * Bounded retries: per logical data call at most 1 + maxRetries attempts, plus one retry
 * after a 401; the logical calls are those a fault-free cold run of the whole workbook needs
 * (a scenario's cold half needs fewer, which leaves room for calls a quota refusal splits).
 */
export function dataAttemptBound(logicalCalls: number): number {
  return logicalCalls * (RETRY.maxRetries + 2);
}

export function measure(outcome: ScenarioOutcome, logicalCalls: number): Measured {
  const faulted = results(outcome.faulted);
  const recovered = results(outcome.recovered);
  const dataOps = ["series_values", "series_hist"] as const;
  return {
    cells: faulted.length,
    values: faulted.filter((result) => "value" in result).length,
    errors: faulted.filter((result) => "error" in result).length,
    messages: [
      ...new Set(
        faulted.flatMap((result) =>
          "error" in result ? [result.error.message.replace(/\b\d{3,5}-\d-\d{1,2}\b/g, "<code>")] : [],
        ),
      ),
    ],
    dataAttempts: attempts(outcome.faultExchanges, dataOps),
    failedDataAttempts: outcome.faultExchanges.filter(
      (exchange) =>
        (exchange.operation === "series_values" || exchange.operation === "series_hist") && !exchange.charged,
    ).length,
    dataAttemptBound: dataAttemptBound(logicalCalls),
    tokenRequests: attempts(outcome.faultExchanges, ["access_token"]),
    charged: totalCharged(outcome.faultStats) + totalCharged(outcome.recoveryStats),
    recoveryCharged: totalCharged(outcome.recoveryStats),
    distinctCharged: outcome.charges.size,
    recoveredValues: recovered.filter((result) => "value" in result).length,
  };
}
