// One fault scenario, the same way every time: a fresh engine fills its cache with half
// of the workbook's series (fault-free), the fault is armed, the whole 500-formula
// workbook is recalculated, the fault is cleared and the workbook recalculated again.
// What the checks need is measured along the way.
import type { Engine } from "../../../src/core/engine-api";
import type { KeyValueStorage } from "../../../src/core/environment";
import type { Operation } from "../../../src/core/model";
import { CHARGED_FAILURE_MS, RECENT_FAILURE_MS } from "../../../src/core/series-sync";
import { MemoryStorage } from "../../../src/core/storage";
import { runWorkbook, type FormulaResult, type RunReport } from "../../../src/headless";
import { cacheSnapshot, sum, type EmulatorStats, type Exchange, type FaultLab } from "./fault-lab";
import type { Workbook } from "./workbook";

/**
 * A pass that has not settled after this much real time ends unsettled (and the scenario
 * fails): a guard against a hang, never what decides an outcome (a pass takes seconds).
 */
export const PASS_TIMEOUT_MS = 90_000;

/**
 * How long after the fault the recovery recalculation runs (both clocks move): just past the
 * engine's wait before a failed part is asked again. A fault whose answers the service
 * charged (a malformed 200) waits CHARGED_FAILURE_MS instead (ScenarioSetup.charged).
 */
export const RECOVERY_AFTER_MS = RECENT_FAILURE_MS + 1_000;
export const CHARGED_RECOVERY_AFTER_MS = CHARGED_FAILURE_MS + 1_000;

export interface ScenarioOutcome {
  faulted: RunReport;
  recovered: RunReport;
  cacheBefore: Map<string, string>;
  cacheAfterFault: Map<string, string>;
  cacheAfterRecovery: Map<string, string>;
  /** Service counters of the faulted pass and of the recovery pass. */
  faultStats: EmulatorStats;
  recoveryStats: EmulatorStats;
  /** What the lab's fetch saw during the faulted pass and the recovery pass. */
  faultExchanges: Exchange[];
  recoveryExchanges: Exchange[];
  /** Charges per code element over both passes (2xx data answers with a JSON body). */
  charges: Map<string, number>;
  engine: Engine;
  logs: string[];
}

export interface ScenarioSetup {
  arm(lab: FaultLab): Promise<void>;
  /** The fault's answers are successes PCD cannot use: the recovery waits CHARGED_RECOVERY_AFTER_MS. */
  charged?: boolean;
  /** Clears what arm did beyond faults and hooks (e.g. a clock); faults and hooks are cleared anyway. */
  disarm?(lab: FaultLab): Promise<void>;
  storage?: () => KeyValueStorage;
  /** False keeps the service's counters and quotas from the warm-up (a daily quota spent over the day). */
  resetBeforeFault?: boolean;
  /**
   * "new-session": the recovery runs in a new engine on the same storage (the add-in
   * restarted). An engine refused for an exhausted allowance keeps its word until the
   * next release; a new session asks Data Limits again and sees the allowance is back.
   */
  recoverIn?: "same-engine" | "new-session";
}

export async function recalc(engine: Engine, formulas: readonly string[]): Promise<RunReport> {
  return runWorkbook({ engine, formulas, timeoutMs: PASS_TIMEOUT_MS, log: () => undefined });
}

export async function runScenario(
  lab: FaultLab,
  book: Workbook,
  setup: ScenarioSetup,
): Promise<ScenarioOutcome> {
  await lab.resetAll();
  const storage = setup.storage?.() ?? new MemoryStorage();
  const engine = await lab.signedInEngine(storage);
  const warm = await recalc(engine, book.warmFormulas);
  if (!warm.settled) throw new Error("the warm-up pass did not settle");
  const cacheBefore = await cacheSnapshot(storage);

  if (setup.resetBeforeFault === false) {
    lab.exchanges.length = 0;
    lab.logs.length = 0;
  } else {
    await lab.resetAll();
  }
  await setup.arm(lab);
  const formulas = book.cells.map((cell) => cell.formula);
  const faulted = await recalc(engine, formulas);
  await engine.idle();
  // Late answers of calls the engine gave up on (held answers) are charged by the service too.
  await lab.drain();
  lab.expectNoWaitFailed();
  const faultStats = await lab.stats();
  const faultExchanges = [...lab.exchanges];
  const logs = [...lab.logs];
  const cacheAfterFault = await cacheSnapshot(storage);
  const faultCharges = lab.chargesPerCode();

  await lab.admin("faults", undefined, "DELETE");
  lab.hooks.beforeDataCall = undefined;
  lab.hooks.hold = undefined;
  lab.hooks.unreachable = false;
  await setup.disarm?.(lab);
  // The cells retry on their schedule once the fault clears: by then the engine no longer
  // holds the parts that failed (it does not ask a failed part again for RECENT_FAILURE_MS,
  // or CHARGED_FAILURE_MS when the service charged it, so that one recalculation never
  // charges a key twice). Recovering any earlier would find the part still held.
  const recoveryAfter = setup.charged === true ? CHARGED_RECOVERY_AFTER_MS : RECOVERY_AFTER_MS;
  await lab.setClock(new Date(lab.now() + recoveryAfter).toISOString());
  const recoveryEngine = setup.recoverIn === "new-session" ? await lab.signedInEngine(storage) : engine;
  await lab.admin("reset", {});
  lab.exchanges.length = 0;
  const recovered = await recalc(recoveryEngine, formulas);
  await recoveryEngine.idle();
  lab.expectNoWaitFailed();
  const recoveryStats = await lab.stats();
  const recoveryExchanges = [...lab.exchanges];
  const charges = lab.chargesPerCode();
  for (const [code, count] of faultCharges) charges.set(code, (charges.get(code) ?? 0) + count);
  return {
    faulted,
    recovered,
    cacheBefore,
    cacheAfterFault,
    cacheAfterRecovery: await cacheSnapshot(storage),
    faultStats,
    recoveryStats,
    faultExchanges,
    recoveryExchanges,
    charges,
    engine,
    logs: [...logs, ...lab.logs],
  };
}

export function attempts(exchanges: readonly Exchange[], operations: readonly Operation[]): number {
  return exchanges.filter((exchange) => operations.includes(exchange.operation)).length;
}

export function totalCharged(stats: EmulatorStats): number {
  return sum(stats.dataRequests);
}

export function results(report: RunReport): FormulaResult[] {
  const pass = report.passes.at(-1);
  if (!pass) throw new Error("the run has no pass");
  return pass.results;
}
