// Mounts the real task pane on the real engine over an in-memory service, with the refresh
// and status parts scripted so browser tests can reach states the emulator cannot produce
// on demand: a release since the last refresh, an automatic refresh, a refresh that fails,
// an over-budget plan, release-day downtime.
// The scenario comes from the page's query: ?setup=<JSON of HarnessSetup>.
import { createRoot } from "react-dom/client";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type {
  AuthStatus,
  EngineSettings,
  LimitsReport,
  LimitsRow,
  RefreshPlan,
  RefreshProgress,
  RefreshSummary,
  ServiceReachability,
  ServiceState,
  Unsubscribe,
} from "../../../src/core/engine-api";
import { EngineCore } from "../../../src/core/engine-core";
import type { AuthPort } from "../../../src/core/engine-parts";
import { PcdError } from "../../../src/core/errors";
import type { ProductId } from "../../../src/core/model";
import { MemoryStorage } from "../../../src/core/storage";
import { RefreshRunner } from "../../../src/host/refresh-runner";
import { App } from "../../../src/taskpane/App";
import type { FormulaTarget } from "../../../src/taskpane/excel-bridge";
import { PaneServicesProvider } from "../../../src/taskpane/pane-services";
import { WorkbookActions } from "../../../src/workbook/workbook-actions";
import { MemoryWorkbookHost } from "../../workbook/memory-workbook-host";
import { testSeal } from "../../workbook/test-seal";
import { FakeSchedule, FakeSettings } from "../../core/support/engine-harness";
import { FakeService } from "../../core/support/fake-service";
import { seriesInfo } from "../../core/support/series-fixtures";

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
  /** ...with server errors of this HTTP status (the service is failing, not out of reach). */
  failingStatus?: number;
  /** The service and token addresses (both "": a build made without any). */
  addresses?: Pick<EngineSettings, "baseUrl" | "authUrl">;
  /**
   * Previews made after the downtime's end that still close the refresh (as from an engine whose
   * clock is behind the page's), before one no longer does.
   */
  closedPreviewsAfterEnd?: number;
}

/** The in-memory service, able to say that what its calls observed changed (as the HTTP client does). */
class ObservedService extends FakeService {
  private readonly reachabilityListeners = new Set<() => void>();
  onReachabilityChange(listener: () => void): Unsubscribe {
    this.reachabilityListeners.add(listener);
    return () => this.reachabilityListeners.delete(listener);
  }
  reachabilityChanged(): void {
    for (const listener of [...this.reachabilityListeners]) listener();
  }
}

/** An auth whose status the scenario sets (signed in or not, environment, token expiry). */
class ScriptedAuth implements AuthPort {
  private current: AuthStatus = {
    signedIn: true,
    username: "analyst@example.com",
    environment: "live",
    tokenExpiresAt: null,
    gateway: null,
  };
  private readonly listeners = new Set<(status: AuthStatus) => void>();

  set(patch: Partial<AuthStatus>): void {
    this.current = { ...this.current, ...patch };
    for (const listener of [...this.listeners]) listener(this.current);
  }
  async signIn(username: string): Promise<AuthStatus> {
    this.set({ signedIn: true, username });
    return this.current;
  }
  async token(): Promise<string> {
    if (!this.current.signedIn) throw new PcdError("not_signed_in", "Not signed in.");
    return "token";
  }
  signOut(): void {
    this.set({ signedIn: false, username: null });
  }
  status(): AuthStatus {
    return this.current;
  }
  onChange(listener: (status: AuthStatus) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The real engine over an in-memory service, its catalog, data, Data Limits and sign-in
 * real; what the scenario scripts is what the emulator cannot produce on demand: the
 * release schedule (refresh due, downtime), the refresh itself and the reachability.
 */
class ScriptedEngine extends EngineCore {
  due = false;
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
  closedPreviewsAfterEnd = 0;
  refreshCalls = 0;
  cleared = 0;
  readonly signOuts: unknown[] = [];
  private finishRefresh: (() => void) | undefined;

  constructor(
    readonly service: ObservedService,
    readonly scriptedAuth: ScriptedAuth,
    private readonly scriptedSettings: FakeSettings,
  ) {
    super({
      client: service,
      auth: scriptedAuth,
      settings: scriptedSettings,
      schedule: new FakeSchedule(),
      storage: new MemoryStorage(),
      clock: { now: () => Date.now() },
    });
  }

  /** The settings as the engine keeps them (tests read what the pane wrote). */
  get settings(): EngineSettings {
    return this.scriptedSettings.value;
  }
  set settings(value: EngineSettings) {
    this.scriptedSettings.value = value;
  }

  /** Requests sent but not confirmed per "product|dataset": the state after calls that got no answer. */
  readonly unconfirmed = new Map<string, number>();

  override async limitsReport(options?: { reread?: boolean }): Promise<LimitsReport> {
    const report = await super.limitsReport(options);
    const rows = report.rows.map((row) => {
      const unconfirmed = this.unconfirmed.get(`${row.product}|${row.dataset}`);
      return unconfirmed === undefined ? row : { ...row, unconfirmed };
    });
    return { ...report, rows };
  }

  override refreshDue(): boolean {
    return this.due;
  }

  /** Previews the pane asked for with the catalogs read again (it opened, or Check again). */
  planRechecks = 0;

  override async planRefresh(options: { recheck?: boolean } = {}): Promise<RefreshPlan> {
    if (options.recheck === true) this.planRechecks += 1;
    // As the engine's: a downtime closes the refresh only until its end.
    const { closed, ...open } = this.plan;
    if (closed === undefined || Date.now() < closed.until) return this.plan;
    if (this.closedPreviewsAfterEnd === 0) return open;
    this.closedPreviewsAfterEnd -= 1;
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
    this.service.reachabilityChanged();
  }

  /** The calendar's state changes (a downtime ends): the pane hears it as the engine's meta change. */
  setServiceOpen(): void {
    this.state = { ...this.state, available: true, reason: null, until: null };
    this.service.reachabilityChanged();
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
  async insertFormulas(placed) {
    workbook.written.push(placed.map((item) => item.formula));
    return {
      address: `Sheet1!A1:A${placed.length}`,
      rows: placed.length,
      ranges: placed.map((_item, index) => `Sheet1!A${index + 1}`),
    };
  },
  async selectedCell() {
    return { address: "Sheet1!A1", formula: "" };
  },
  async writeFormula(_address, formula, _expected) {
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
  const service = new ObservedService();
  service.addSeries(seriesInfo({ code: "68520-8-1", lastAvailableFinal: "2024-12" }));
  for (const row of setup.limitsRows ?? []) {
    service.limits.set(row.product, {
      ...service.limits.get(row.product),
      [row.dataset]: { remaining: row.remaining, total: row.total },
    });
  }
  for (const [product, message] of Object.entries(setup.limitsDown ?? {})) {
    const down = new PcdError("unavailable", message);
    service.failWith((call) =>
      call.operation === "data_limits" && call.product === product ? down : undefined,
    );
  }
  const auth = new ScriptedAuth();
  const settings = new FakeSettings();
  const environment = setup.environment ?? "live";
  auth.set({
    signedIn: setup.signedIn ?? true,
    environment,
    tokenExpiresAt: setup.tokenInMinutes === undefined ? null : now + setup.tokenInMinutes * 60_000,
  });
  settings.value = {
    ...settings.value,
    environment,
    autoRefreshAfterRelease: setup.auto ?? false,
    ...setup.addresses,
  };
  const engine = new ScriptedEngine(service, auth, settings);
  engine.due = setup.due ?? false;
  for (const row of setup.limitsRows ?? [])
    if (row.unconfirmed !== undefined)
      engine.unconfirmed.set(`${row.product}|${row.dataset}`, row.unconfirmed);
  if (setup.plan) engine.plan = setup.plan;
  if (setup.summary) engine.summary = { ...engine.summary, ...setup.summary };
  engine.refreshFails = setup.refreshFails;
  engine.closedPreviewsAfterEnd = setup.closedPreviewsAfterEnd ?? 0;
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
        failingStatus: setup.failingStatus ?? null,
      },
    };
  }
  const runner = new RefreshRunner(() => engine);
  // Freeze and the release report act on an in-memory workbook here (the preview page has the real mock).
  const sheets = new MemoryWorkbookHost();
  const actions = new WorkbookActions(
    () => sheets,
    () => engine,
    testSeal(),
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
