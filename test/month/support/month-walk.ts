// The month walk: lives through MONTH_STEPS with the real engine and custom functions (as
// the headless runner drives them: runPass over the workbook's formulas, the previous
// recalculation's cells cancelled as Excel does) against the emulator, and records what
// the invariants (invariants.ts) judge: what the engine and the cells said at each step,
// each refresh's preview and charges, Usage against the service's Data Limits, and every
// call the engine sent. A step that throws is recorded, and the walk goes on.
import type { Engine, RefreshPlan } from "../../../src/core/engine-api";
import type { ProductId } from "../../../src/core/model";
import { toCellOutput, type CellOutput } from "../../../src/headless/cell-output";
import { installCustomFunctionsShim } from "../../../src/headless/custom-functions-shim";
import { installHostRequirementsShim } from "../../../src/headless/host-requirements-shim";
import { runPass, type PassCells } from "../../../src/headless/run-pass";
import { setEngine } from "../../../src/host/shared-engine";
import { MonthLab, type EmulatorStats, type LoggedCall } from "./month-lab";
import { MONTH_SEED, MONTH_STEPS, RELEASE_HOUR_CENTRAL, SETTLE_MS, type MonthStep } from "./month-script";
import { monthWorkbook } from "./month-workbook";
import { engineSays, type ServiceCondition } from "./service-truth";

/** Simulated time a recalculation may take before its cells count as stuck. */
const PASS_TIMEOUT_MS = 10 * 60_000;

export interface CellReading {
  formula: string;
  output: CellOutput;
}

export interface Observation {
  step: string;
  at: string;
  /** "during": right after the step's action; "settled": SETTLE_MS after the service came back. */
  kind: "during" | "settled";
  service: ServiceCondition;
  mayStillSay?: ServiceCondition;
  engineSays: ServiceCondition;
  cells: CellReading[];
  /** The engine offers a refresh because a release came out since the last refresh-all. */
  refreshOffered: boolean;
  /** The truth: the service published a release since the last refresh-all (or the first open). */
  releaseSinceRefresh: boolean;
}

export type DatasetCount = { product: string; dataset: string; requests: number };

export interface RefreshRecord {
  step: string;
  service: ServiceCondition;
  preview: DatasetCount[];
  charged: DatasetCount[];
  previewError?: string;
  /** Why the refresh failed (it threw, or the failures its summary lists). */
  refreshError?: string;
  /** Whether the workbook's cells showed data (a failure must not say there is none). */
  cellsHadData: boolean;
  /** Series Values / History calls of the recalculation right after the refresh. */
  recalcDataCalls: LoggedCall[];
}

export interface UsageRecord {
  step: string;
  when: "Usage tab open" | "before the refresh" | "after the refresh";
  rows: Array<{ product: string; dataset: string; engine: number; service: number | undefined }>;
  error?: string;
}

export interface MonthRecord {
  observations: Observation[];
  refreshes: RefreshRecord[];
  usage: UsageRecord[];
  calls: LoggedCall[];
  /** The previews and refreshes the user asked for (a downtime probe answers one). */
  userActions: Array<{ at: number; what: "preview" | "refresh" }>;
  /** The service's first final month of each series the workbook asks for (month-workbook.ts). */
  seriesStart: Record<string, string>;
  /** Steps that threw: the walk itself went wrong there. */
  errors: string[];
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function chargesBetween(before: EmulatorStats, after: EmulatorStats): DatasetCount[] {
  const counts: DatasetCount[] = [];
  for (const [product, datasets] of Object.entries(after.dataRequestsByProduct)) {
    for (const [dataset, total] of Object.entries(datasets)) {
      const requests = total - (before.dataRequestsByProduct[product]?.[dataset] ?? 0);
      if (requests !== 0) counts.push({ product, dataset, requests });
    }
  }
  return sortCounts(counts);
}

function previewOf(plan: RefreshPlan): DatasetCount[] {
  return sortCounts(
    plan.cost
      .filter((row) => row.requests !== 0)
      .map(({ product, dataset, requests }) => ({ product, dataset, requests })),
  );
}

function sortCounts(counts: DatasetCount[]): DatasetCount[] {
  return counts.sort((a, b) => `${a.product}|${a.dataset}`.localeCompare(`${b.product}|${b.dataset}`));
}

/** Walks the month. Fake timers must be installed at MONTH_START (see month-walk.test.ts). */
export async function walkMonth(): Promise<MonthRecord> {
  installCustomFunctionsShim();
  installHostRequirementsShim();
  const lab = await MonthLab.start({ seed: MONTH_SEED, releaseHour: RELEASE_HOUR_CENTRAL });
  const book = monthWorkbook(lab);
  const engine: Engine = lab.engine();
  setEngine(engine);
  const record: MonthRecord = {
    observations: [],
    refreshes: [],
    usage: [],
    calls: lab.calls,
    userActions: [],
    seriesStart: book.seriesStart,
    errors: [],
  };
  const formulas = [...book.formulas];
  const probes = [...book.probes];
  let live: PassCells | undefined;
  /** The service's latest concluded month when the workbook was last brought up to date. */
  let monthAtRefresh: string | undefined;
  const latestMonth = async (): Promise<string> =>
    (await lab.admin<{ latestConcludedMonth: string }>("clock", undefined, "GET")).latestConcludedMonth;

  const recalculate = async (): Promise<void> => {
    for (const invocation of live?.invocations ?? []) invocation.cancel();
    live = (await lab.settle(runPass(engine, formulas, PASS_TIMEOUT_MS))).cells;
  };
  const cells = (): CellReading[] =>
    formulas.map((formula, index) => {
      const invocation = live?.invocations[index];
      return {
        formula,
        output: invocation?.hasResult
          ? toCellOutput(invocation.latest)
          : { error: { type: "#BUSY!", message: "no result yet" } },
      };
    });
  const observe = async (step: MonthStep, kind: Observation["kind"]): Promise<void> => {
    const month = await latestMonth();
    record.observations.push({
      refreshOffered: engine.refreshDue(),
      releaseSinceRefresh: monthAtRefresh !== undefined && month !== monthAtRefresh,
      step: step.name,
      at: new Date(Date.now()).toISOString(),
      kind,
      service: step.service,
      mayStillSay: step.mayStillSay,
      engineSays: engineSays(engine),
      cells: cells(),
    });
  };
  const readUsage = async (step: MonthStep, when: UsageRecord["when"]): Promise<void> => {
    try {
      const report = await lab.settle(engine.limitsReport());
      record.usage.push({
        step: step.name,
        when,
        rows: report.rows.map((row) => ({
          product: row.product,
          dataset: row.dataset,
          engine: row.remaining,
          service: lab.serviceLimits(row.product as ProductId)[row.dataset]?.remaining_requests,
        })),
      });
    } catch (error) {
      record.usage.push({ step: step.name, when, rows: [], error: reason(error) });
    }
  };
  const refresh = async (step: MonthStep): Promise<void> => {
    const up = step.service === "up";
    const entry: RefreshRecord = {
      step: step.name,
      service: step.service,
      preview: [],
      charged: [],
      recalcDataCalls: [],
      cellsHadData: cells().some((cell) => !("error" in cell.output)),
    };
    record.userActions.push({ at: Date.now(), what: "preview" });
    try {
      // The Usage tab opening asks for the preview with the catalogs read again (RefreshPanel).
      entry.preview = previewOf(await lab.settle(engine.planRefresh({ recheck: true })));
    } catch (error) {
      entry.previewError = reason(error);
    }
    // The bars as they stand once the preview's catalog reads are in (a release seen there
    // makes them read Data Limits again).
    if (up) await readUsage(step, "before the refresh");
    const before = await lab.stats();
    const month = await latestMonth();
    record.userActions.push({ at: Date.now(), what: "refresh" });
    try {
      const summary = await lab.settle(engine.refreshAll());
      if (summary.failed > 0)
        entry.refreshError = summary.failures.map((failure) => failure.message).join(" | ");
      else monthAtRefresh = month;
    } catch (error) {
      entry.refreshError = reason(error);
    }
    entry.charged = chargesBetween(before, await lab.stats());
    if (up) await readUsage(step, "after the refresh");
    const from = lab.calls.length;
    await recalculate();
    entry.recalcDataCalls = lab.calls
      .slice(from)
      .filter((call) => call.operation === "series_values" || call.operation === "series_hist");
    record.refreshes.push(entry);
  };

  try {
    await lab.settle(engine.ready());
    await lab.settle(engine.signIn(lab.username, lab.password));
    for (const step of MONTH_STEPS) {
      try {
        await lab.advanceTo(Date.parse(step.at));
        await lab.syncServiceClock();
        await step.change?.(lab, book);
        if (step.user === "look") {
          // The Usage tab opening: the preview reads the catalogs again (RefreshPanel), the
          // bars show what is known once it has.
          record.userActions.push({ at: Date.now(), what: "preview" });
          await lab.settle(engine.planRefresh({ recheck: true }));
          await readUsage(step, "Usage tab open");
        } else if (step.user === "open") {
          const probe = probes.shift();
          if (probe !== undefined && live !== undefined) formulas.push(`=PCD.VALUE("${probe}")`);
          await recalculate();
          monthAtRefresh ??= await latestMonth();
        } else if (step.user === "refresh") {
          await refresh(step);
        } else if (step.user === "sign-in") {
          await lab.settle(engine.signIn(lab.username, lab.password));
        }
        if (step.settles) {
          await lab.advanceBy(SETTLE_MS);
          await observe(step, "settled");
        } else {
          await observe(step, "during");
        }
      } catch (error) {
        record.errors.push(`${step.name}: ${reason(error)}`);
      }
    }
  } finally {
    for (const invocation of live?.invocations ?? []) invocation.cancel();
    await lab.flush();
    setEngine(undefined);
  }
  return record;
}
