// Mounts the real task pane on a scripted in-memory engine (the FakeEngine of the unit
// tests, extended with the refresh and status parts) so browser tests can reach states
// the emulator cannot produce on demand: a release since the last refresh, an automatic
// refresh, a refresh that fails, an over-budget plan, release-day downtime.
// The scenario comes from the page's query: ?setup=<JSON of HarnessSetup>.
import { createRoot } from "react-dom/client";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type {
  EngineSettings,
  LimitsRow,
  RefreshPlan,
  RefreshProgress,
  RefreshSummary,
  ServiceReachability,
  ServiceState,
} from "../../../src/core/engine-api";
import { PcdError } from "../../../src/core/errors";
import type { ProductId } from "../../../src/core/model";
import { RefreshRunner } from "../../../src/host/refresh-runner";
import { App } from "../../../src/taskpane/App";
import type { FormulaTarget } from "../../../src/taskpane/excel-bridge";
import { PaneServicesProvider } from "../../../src/taskpane/pane-services";
import { FakeEngine, makeInfo, monthlyPoints } from "../../support/fake-engine";
import { WorkbookActions } from "../../../src/taskpane/freeze/workbook-actions";
import { MemoryWorkbookHost } from "../../taskpane/freeze/memory-workbook-host";

export interface HarnessSetup {
  signedIn?: boolean;
  environment?: "live" | "sandbox";
  tokenInMinutes?: number;
  due?: boolean;
  auto?: boolean;
  plan?: RefreshPlan;
  /** until, as minutes from the page's now (half a minute more reads as whole minutes while time flows). */
  service?: { available: boolean; reason: ServiceState["reason"]; untilInMinutes: number | null };
  summary?: Partial<RefreshSummary>;
  /** The refresh rejects with this message instead of returning the summary. */
  refreshFails?: string;
  /** Data Limits rows of the usage bars. */
  limitsRows?: LimitsRow[];
  /** Products whose Data Limits cannot be read, with the (unavailable) error's message. */
  limitsDown?: Partial<Record<ProductId, string>>;
  /** The engine's calls get no answer since this time (ISO), for this reason. */
  unreachableSince?: string;
  unreachableReason?: string;
  /** The service and token addresses (both "": a build made without any). */
  addresses?: Pick<EngineSettings, "baseUrl" | "authUrl">;
}

class ScriptedEngine extends FakeEngine {
  due = false;
  settings: EngineSettings = { ...super.getSettings() };
  plan: RefreshPlan = { items: [], cost: [], totalRequests: 0, overBudget: [] };
  state: ServiceState = { available: true, reason: null, until: null, nextRelease: 0, nextMaintenance: 0 };
  summary: RefreshSummary = {
    updated: 0,
    revised: 0,
    unchanged: 0,
    failed: 0,
    requestsUsed: 0,
    failures: [],
    startedAt: 0,
    finishedAt: 0,
  };
  refreshFails: string | undefined;
  refreshCalls = 0;
  cleared = 0;
  readonly signOuts: unknown[] = [];
  private finishRefresh: (() => void) | undefined;

  override refreshDue(): boolean {
    return this.due;
  }

  override getSettings(): EngineSettings {
    return this.settings;
  }

  override async updateSettings(patch: Partial<EngineSettings>): Promise<EngineSettings> {
    this.settings = { ...this.settings, ...patch };
    return this.settings;
  }

  override async planRefresh(): Promise<RefreshPlan> {
    return this.plan;
  }

  override async refreshAll(onProgress?: (progress: RefreshProgress) => void): Promise<RefreshSummary> {
    this.refreshCalls += 1;
    onProgress?.({ done: 1, total: 4, phase: "data" });
    await new Promise<void>((resolve) => {
      this.finishRefresh = resolve;
    });
    if (this.refreshFails !== undefined) throw new Error(this.refreshFails);
    this.due = false;
    return { ...this.summary, finishedAt: Date.now() };
  }

  /** Lets a running refresh finish (tests look at its progress first). */
  finish(): boolean {
    const finish = this.finishRefresh;
    this.finishRefresh = undefined;
    finish?.();
    return finish !== undefined;
  }

  override serviceState(): ServiceState {
    return this.state;
  }

  /** The service answers again (or stops answering): what the engine's calls observed. */
  setReachability(reachability: ServiceReachability): void {
    this.state = { ...this.state, reachability };
    this.emitMeta();
  }

  override async clearCache(): Promise<void> {
    this.cleared += 1;
  }

  override async signOut(options?: { clearCache?: boolean }): Promise<void> {
    this.signOuts.push(options ?? {});
    await super.signOut();
  }
}

const workbook: FormulaTarget & { written: string[][] } = {
  written: [],
  async selectedAddress() {
    return "Sheet1!A1";
  },
  async insertFormulas(formulas) {
    workbook.written.push([...formulas]);
    return { address: `Sheet1!A1:A${formulas.length}`, rows: formulas.length };
  },
  async selectedCell() {
    return { address: "Sheet1!A1", formula: "" };
  },
  async writeFormula(_address, formula) {
    workbook.written.push([formula]);
  },
  async onSelectionChanged() {
    return async () => undefined;
  },
  async opensWithWorkbook() {
    return false;
  },
  async setOpensWithWorkbook() {
    return undefined;
  },
};

function start(): void {
  const setup = JSON.parse(new URLSearchParams(location.search).get("setup") ?? "{}") as HarnessSetup;
  const now = Date.now();
  const engine = new ScriptedEngine([
    { info: makeInfo({ code: "68520-8-1" }), finals: monthlyPoints("2024-01", 12), forecasts: [] },
  ]);
  engine.setAuth({
    signedIn: setup.signedIn ?? true,
    environment: setup.environment ?? "live",
    tokenExpiresAt: setup.tokenInMinutes === undefined ? null : now + setup.tokenInMinutes * 60_000,
  });
  engine.due = setup.due ?? false;
  engine.settings = { ...engine.settings, autoRefreshAfterRelease: setup.auto ?? false, ...setup.addresses };
  if (setup.plan) engine.plan = setup.plan;
  if (setup.summary) engine.summary = { ...engine.summary, ...setup.summary };
  engine.refreshFails = setup.refreshFails;
  if (setup.limitsRows) engine.limitsRows = setup.limitsRows;
  for (const [product, message] of Object.entries(setup.limitsDown ?? {}))
    engine.productLimitsFailures.set(product, new PcdError("unavailable", message));
  if (setup.service) {
    engine.state = {
      available: setup.service.available,
      reason: setup.service.reason,
      until: setup.service.untilInMinutes === null ? null : now + setup.service.untilInMinutes * 60_000,
      nextRelease: now + 86_400_000,
      nextMaintenance: now + 2 * 86_400_000,
    };
  }
  if (setup.unreachableSince !== undefined) {
    engine.state = {
      ...engine.state,
      reachability: {
        unreachableSince: Date.parse(setup.unreachableSince),
        reason: setup.unreachableReason ?? "The service could not be reached (connection refused).",
        maintenanceUntil: null,
        lastAnswerAt: null,
      },
    };
  }
  const runner = new RefreshRunner(() => engine);
  // Freeze and the release report act on an in-memory workbook here (the preview page has the real mock).
  const sheets = new MemoryWorkbookHost();
  const actions = new WorkbookActions(
    () => sheets,
    () => engine,
  );
  Object.assign(window, { __harness: { engine, runner, workbook, sheets } });
  const container = document.getElementById("root");
  if (!container) return;
  createRoot(container).render(
    <FluentProvider theme={webLightTheme}>
      <PaneServicesProvider services={{ engine, refresh: runner, workbook, actions }}>
        <App />
      </PaneServicesProvider>
    </FluentProvider>,
  );
}

start();
