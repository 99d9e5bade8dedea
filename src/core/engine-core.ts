// The Engine facade over the data half. It depends on the transport half only through
// small ports (auth, settings, schedule, ServiceClient), so the whole engine can be
// exercised with fakes; createEngine (engine.ts) plugs in the real transport.
import { earliestReadAt, GATEWAY_CLOCK_SKEW_MS } from "./gateway-read-time";
import { Batcher } from "./batcher";
import { DataCache } from "./cache";
import { Catalog } from "./catalog";
import { ChangeEvents } from "./change-events";
import { DataLimitsKeeper, LIMITS_MAX_AGE_MS } from "./data-limits-keeper";
import { DowntimePolicy } from "./downtime-policy";
import { serviceCondition } from "./service-condition";
import { OutageProbe } from "./outage-probe";
import { ServiceReturn } from "./service-return";
import type { EngineParts } from "./engine-parts";
import type {
  AuthStatus,
  CacheInfo,
  Engine,
  EngineSettings,
  EngineStats,
  LimitsReport,
  LimitsRow,
  RefreshPlan,
  RefreshProgress,
  RefreshSummary,
  SearchHit,
  SearchOptions,
  SeriesData,
  SeriesRequest,
  ServiceState,
  Unsubscribe,
} from "./engine-api";
import { errorMessage, PcdError } from "./errors";
import { PRODUCTS, type DataLimits, type ProductId, type SeriesInfo, type ServiceEnvironment } from "./model";
import { QuotaLedger } from "./quota-ledger";
import { LastRefresh } from "./last-refresh";
import type { Refresher, RefreshRunOptions } from "./refresh";
import { resolveSeriesRequest } from "./resolve-request";
import type { SearchIndexCache } from "./search-index";
import { WHOLE_SERIES, type SeriesNeed } from "./series-need";
import { SeriesServer } from "./series-server";
import { SeriesSync } from "./series-sync";
import { storageFallbackReason } from "./storage/resilient-storage";
import { signInError } from "./sign-in-gate";
import type { ExternalTokenSource } from "./token-source";
import { WorkbookKeys } from "./workbook-keys";

export { LIMITS_MAX_AGE_MS } from "./data-limits-keeper";

/**
 * A refused currency or unit the tables do not know, with "did you mean …?" when a near
 * offered name exists. The suggestion's code loads on the first such mistake; when it
 * cannot load, the refusal goes out as it is (it already names what is offered).
 */
function suggestOption(error: unknown): never | Promise<never> {
  if (!(error instanceof PcdError) || error.details.unknownName === undefined) throw error;
  return import(/* webpackChunkName: "option-suggestion" */ "./option-suggestion").then(
    ({ withSuggestion }) => {
      throw withSuggestion(error);
    },
    () => {
      throw error;
    },
  );
}

export class EngineCore implements Engine {
  private readonly changes: ChangeEvents;
  private readonly catalogStore: Catalog;
  private readonly cache: DataCache;
  private readonly ledger: QuotaLedger;
  private readonly batcher: Batcher;
  private readonly seriesSync: SeriesSync;
  private readonly workbookKeys: WorkbookKeys;
  private readonly lastRefresh: LastRefresh;
  // Refresh-all loads on the first plan or refresh (a chunk of its own in the add-in): it
  // runs about once a month, and Excel loads the rest of the engine at start.
  private refreshModule: Promise<typeof import("./refresh")> | undefined;
  private refresher: Refresher | undefined;
  private readonly limitsKeeper: DataLimitsKeeper;
  private readonly downtime: DowntimePolicy;
  private readonly serviceReturn: ServiceReturn;
  private readonly outageProbe: OutageProbe;
  // The search index and its library load on the first search (a chunk of their own in the
  // add-in): most workbooks never search, and Excel loads the rest of the engine at start.
  private searchIndexModule: Promise<typeof import("./search-index")> | undefined;
  private searchIndex: SearchIndexCache | undefined;
  private loading: Promise<void> | undefined;
  /** True once load() is done (the synchronous fast path needs the stored state read). */
  private loaded = false;
  private readonly server: SeriesServer;
  /** Per product, when the team gateway read the catalog just answered (its catalog takes it). */
  private readonly catalogSourceReadAt = new Map<ProductId, number>();

  constructor(private readonly parts: EngineParts) {
    const { storage, log } = parts;
    const now = (): number => parts.clock.now();
    this.changes = new ChangeEvents(log, parts.defer);
    this.downtime = new DowntimePolicy({
      now,
      scheduled: (at, options) => parts.schedule.serviceState(at, this.releaseDay(), options),
      reachability: () => parts.client.reachability?.(),
      answersShowRelease: () => !this.gatewayServesDowntime(),
    });
    // Through a team gateway a window is no downtime for the calls: the gateway answering is up.
    this.serviceReturn = new ServiceReturn(() => {
      const { kind } = serviceCondition(this.serviceState());
      return kind === "up" || ((kind === "maintenance" || kind === "release") && this.gatewayAnswers());
    });
    // Reads held back after failures (failure-backoff.ts) may go at once when the service
    // answers again: registered first, so it runs before the cells that wait on the return.
    this.serviceReturn.onBack(() => {
      this.catalogStore.forgetFailures();
      this.limitsKeeper.forgetFailures();
      this.seriesSync.forgetDowntimeFailures();
    });
    // The pane's outage banner and Status tab follow reachability as it changes; cells that
    // wait on a retry hear when the service answers again.
    this.outageProbe = new OutageProbe({
      // Without a session no call can be made: nothing to probe with.
      inOutage: () => {
        if (!parts.auth.status().signedIn) return false;
        const kind = serviceCondition(this.serviceState()).kind;
        return kind === "failing" || kind === "unreachable";
      },
      outageResumesAt: () => {
        const state = this.downtime.state();
        const seen = state.reachability?.unreachableSince ?? null;
        // Through a team gateway a window stops no call: its outage is probed as on any day.
        return !state.available &&
          seen !== null &&
          parts.auth.status().signedIn &&
          !this.gatewayServesDowntime()
          ? state.until
          : null;
      },
      now,
      ...(parts.scheduler ? { scheduler: parts.scheduler } : {}),
      // Data Limits of a product the workbook uses: no data request, the smallest answer.
      probe: () =>
        parts.client.dataLimits(this.workbookKeys.list()[0]?.product ?? "energy_price", { once: true }),
    });
    // A team gateway's catalog read from the service at that time: an answer of the service's
    // then (on release day, after the release started, it shows the release out).
    parts.client.onCatalogReadAt?.((product, at) => {
      // Only a gateway's word counts (the service itself sends no such time). A time a little
      // ahead of this machine's clock is the two clocks differing: taken as now, and it ends
      // release day only when it is after the release's start by more than they may differ.
      if (!this.throughGateway() || at > now() + GATEWAY_CLOCK_SKEW_MS) return;
      const readAt = Math.min(at, now());
      this.catalogSourceReadAt.set(product, readAt);
      this.endingReleaseDay(() => this.downtime.answeredBefore(earliestReadAt(readAt)));
    });
    parts.client.onReachabilityChange?.(() => {
      this.changes.metaChanged();
      this.serviceReturn.check();
      this.outageProbe.update();
    });
    this.catalogStore = new Catalog({
      client: parts.client,
      storage,
      now,
      environment: () => this.environment(),
      log,
      onChange: () => this.changes.metaChanged(),
      // A release shows in the catalog first (one off schedule, or published hours into
      // release day): the allowances may have reset, so earlier readings are not reused.
      onNewData: (product) => {
        // Release day may end here (through a team gateway only this or the gateway's read time ends it).
        this.endingReleaseDay(() => this.downtime.noteNewData());
        this.serviceReturn.check();
        const at = now();
        this.ledger.resetSeen(at);
        this.lastRefresh.releaseSeen(this.environment(), product, at);
      },
      onFetched: () => {
        this.downtime.noteServiceAnswered();
        this.serviceReturn.check();
      },
      onFetching: (product) => this.limitsKeeper.readAheadForCatalog(product),
      announcedDowntime: (product) => {
        const { reason } = this.serviceState();
        const error = this.callBlockedByDowntime(product, true, "the catalog cannot be read meanwhile");
        return reason !== null && error ? { reason, error } : undefined;
      },
      latestReleaseStart: () => parts.schedule.latestReleaseStart(now(), this.releaseDay()),
      latestReleaseOut: () => this.latestReleaseOut(),
      sourceReadAt: (product) => {
        const at = this.catalogSourceReadAt.get(product);
        this.catalogSourceReadAt.delete(product);
        return at;
      },
      // A catalog read while the release was awaited is read again every few minutes only
      // through a gateway that serves the window and answers (else the wait would be for nothing).
      rereadAwaited: () => this.gatewayAnswers(),
      awaitedRelease: () => {
        const state = this.downtime.state();
        return !state.available && state.reason === "release"
          ? parts.schedule.latestReleaseStart(now(), this.releaseDay())
          : undefined;
      },
    });
    this.cache = new DataCache(storage, log);
    this.ledger = new QuotaLedger({
      now,
      latestReleaseStart: () => parts.schedule.latestReleaseStart(now(), this.releaseDay()),
      nextRelease: () => this.serviceState().nextRelease,
      answersMayBeFree: () => this.throughGateway(),
    });
    this.workbookKeys = new WorkbookKeys(parts.workbookStorage ?? storage, log);
    this.limitsKeeper = new DataLimitsKeeper({
      ledger: this.ledger,
      now,
      read: (product) => parts.client.dataLimits(product),
      environment: () => this.environment(),
      signedIn: () => parts.auth.status().signedIn,
      token: () => parts.auth.token(),
      downtimeError: (product) =>
        this.callBlockedByDowntime(product, false, `the Data Limits of ${product} cannot be read meanwhile`),
      workbookProducts: () => new Set(this.workbookKeys.list().map((key) => key.product)),
      limitsChanged: () => this.changes.limitsChanged(),
      blocksLifted: (keys) => {
        for (const key of keys) this.changes.changed(key);
      },
      throughGateway: () => this.throughGateway(),
      ...(parts.scheduler ? { scheduler: parts.scheduler } : {}),
      log,
    });
    this.batcher = new Batcher({
      client: parts.client,
      gate: this.limitsKeeper.gate(),
      windowMs: parts.batchWindowMs,
      maxWaitMs: parts.batchMaxWaitMs,
      splitWhenUnavailable: () => this.gatewayServesDowntime() && !this.downtime.state().available,
      log,
    });
    this.seriesSync = new SeriesSync({
      cache: this.cache,
      batcher: this.batcher,
      changes: this.changes,
      now,
      log,
      onHistoryUnavailable: () => this.changes.metaChanged(),
    });
    this.lastRefresh = new LastRefresh({
      storage,
      workbookStorage: parts.workbookStorage ?? storage,
      sync: this.seriesSync,
      workbookKeys: this.workbookKeys,
      latestReleaseOut: () => this.latestReleaseOut(),
      now,
      log,
    });
    this.server = new SeriesServer({
      cache: this.cache,
      catalog: this.catalogStore,
      sync: this.seriesSync,
      now,
      environment: () => this.environment(),
      loaded: () => this.loaded,
      noteNeed: (key, need) => this.workbookKeys.add(key, need),
      noteProduct: (product) => this.limitsKeeper.readAhead(product),
      downtimeError: (code, hasCache) => this.downtimeError(code, hasCache),
      callBlocked: (code, hasCache) => this.callBlockedByDowntime(code, hasCache),
      explainFailure: (code, hasCache, error) => this.explainFailure(code, hasCache, error),
      signInError: () => signInError(this.parts.auth),
    });
  }

  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** Runs `next` at once when the stored state is read, else after it is (no extra turn). */
  private whenLoaded<T>(next: () => Promise<T>): Promise<T> {
    return this.loaded ? next() : this.ready().then(next);
  }

  getSettings(): EngineSettings {
    return this.parts.settings.current();
  }

  async updateSettings(patch: Partial<EngineSettings>): Promise<EngineSettings> {
    await this.ready();
    const before = this.environment();
    const updated = await this.parts.settings.update(patch);
    this.parts.auth.checkSettings?.();
    if (updated.environment !== before) this.changes.metaChanged();
    return updated;
  }

  signIn(username: string, password: string): Promise<AuthStatus>;
  signIn(source: ExternalTokenSource): Promise<AuthStatus>;
  async signIn(who: string | ExternalTokenSource, password?: string): Promise<AuthStatus> {
    await this.ready();
    const status = await this.parts.auth.signIn(who, password);
    // Another account may have other allowances: start the ledger afresh.
    this.ledger.clear();
    this.limitsKeeper.newSession();
    // An outage seen before (or by a sign-in that got no answer) is probed again now that there
    // is a session to call with: the pane must not keep telling it once the service answers.
    this.outageProbe.update();
    this.changes.metaChanged();
    return status;
  }

  async signOut(options: { clearCache?: boolean } = {}): Promise<void> {
    this.parts.auth.signOut();
    // No call can be made without a session: an outage probe would wait for ever.
    this.outageProbe.update();
    this.ledger.clear();
    if (options.clearCache) await this.clearCache();
    else this.changes.metaChanged();
  }

  authStatus(): AuthStatus {
    return this.parts.auth.status();
  }

  onAuthChange(listener: (status: AuthStatus) => void): Unsubscribe {
    return this.parts.auth.onChange(listener);
  }

  lookup(code: string): Promise<SeriesInfo> {
    return this.whenLoaded(() => this.catalogStore.lookup(code));
  }

  async catalog(product?: ProductId): Promise<SeriesInfo[]> {
    await this.ready();
    return product ? this.catalogStore.list(product) : this.catalogStore.all();
  }

  async search(text: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.ready();
    if (options.product) await this.catalogStore.list(options.product);
    else await this.catalogStore.ensureEvery();
    const { SearchIndexCache } = await this.loadSearchIndex();
    this.searchIndex ??= new SearchIndexCache();
    const index = this.searchIndex.indexOf(this.catalogStore.version(), this.environment(), () =>
      this.catalogStore.loaded(),
    );
    return index.search(text, options);
  }

  /** The search index's module, loaded once; a failed load is tried again by the next search. */
  private loadSearchIndex(): Promise<typeof import("./search-index")> {
    this.searchIndexModule ??= import(/* webpackChunkName: "search-index" */ "./search-index").catch(
      (error: unknown) => {
        this.searchIndexModule = undefined;
        throw new PcdError(
          "network",
          `The add-in could not load its search code (${errorMessage(error)}): check the connection and search again.`,
        );
      },
    );
    return this.searchIndexModule;
  }

  /** Refresh-all, its module loaded once; a failed load is tried again by the next plan or refresh. */
  private async loadRefresher(): Promise<Refresher> {
    this.refreshModule ??= import(/* webpackChunkName: "refresh-all" */ "./refresh").catch(
      (error: unknown) => {
        this.refreshModule = undefined;
        throw new PcdError(
          "network",
          `The add-in could not load its refresh code (${errorMessage(error)}): check the connection and refresh again.`,
        );
      },
    );
    const { Refresher } = await this.refreshModule;
    const { parts } = this;
    const { log } = parts;
    const now = (): number => parts.clock.now();
    this.refresher ??= new Refresher({
      catalog: this.catalogStore,
      sync: this.seriesSync,
      workbookKeys: this.workbookKeys,
      workbookCodes: parts.workbookCodes,
      lastRefresh: this.lastRefresh,
      now,
      environment: () => this.environment(),
      latestReleaseStart: () => parts.schedule.latestReleaseStart(now(), this.releaseDay()),
      latestReleaseOut: () => this.latestReleaseOut(),
      closed: () => {
        const state = this.serviceState();
        return state.available || state.reason === null || state.until === null
          ? null
          : { reason: state.reason, until: state.until };
      },
      // Refresh-all reads Data Limits afresh (a few minutes' reuse), so its cost preview is current.
      ensureLimits: (products) => this.limitsKeeper.ensure(products, LIMITS_MAX_AGE_MS),
      rereadLimits: (products) => this.limitsKeeper.ensure(products, 0),
      remaining: (product, dataset) =>
        this.environment() === "live" ? this.ledger.remaining("live", product, dataset) : null,
      codesCharged: () => this.batcher.codesCharged(),
      throughGateway: () => this.throughGateway(),
      codesUnconfirmed: () => this.batcher.codesUnconfirmed(),
      preflight: () => this.preflight(),
      log,
    });
    return this.refresher;
  }

  // resolve and getSeries chain promises instead of awaiting: a cold workbook's cells all
  // wait here at once, for seconds, and a suspended async function per cell and call would be
  // a large part of the memory such a pass keeps (src/core/series-server.ts says more).
  resolve(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
  ): Promise<SeriesRequest> {
    return this.whenLoaded(() => this.catalogStore.lookup(code))
      .then((info) => {
        this.limitsKeeper.readAhead(info.product);
        return resolveSeriesRequest(this.environment(), info, currency, unit);
      })
      .catch(suggestOption);
  }

  getSeries(request: SeriesRequest, need: SeriesNeed = WHOLE_SERIES): Promise<SeriesData> {
    return this.whenLoaded(() => this.server.get(request, need));
  }

  lookupNow(code: string): SeriesInfo | undefined {
    return this.server.lookupNow(code);
  }

  serveNow(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
    need: SeriesNeed,
  ): SeriesData | undefined {
    return this.server.serveNow(code, currency, unit, need);
  }

  peek(key: string): SeriesData | undefined {
    return this.server.peek(key);
  }

  retainKey(id: string, need: SeriesNeed = WHOLE_SERIES): Unsubscribe {
    return this.workbookKeys.retainId(id, need);
  }

  onChange(listener: (keys: ReadonlySet<string>) => void): Unsubscribe {
    return this.changes.onChange(listener);
  }

  onKeyChange(key: string, listener: () => void): Unsubscribe {
    return this.changes.onKeyChange(key, listener);
  }

  onMetaChange(listener: () => void): Unsubscribe {
    return this.changes.onMetaChange(listener);
  }

  onCatalogChange(listener: () => void): Unsubscribe {
    return this.changes.onCatalogChange(listener);
  }

  async limits(): Promise<LimitsRow[]> {
    return (await this.limitsReport()).rows;
  }

  async limitsReport(options: { reread?: boolean } = {}): Promise<LimitsReport> {
    await this.ready();
    return this.limitsKeeper.report(options);
  }

  async limitsOf(product: ProductId): Promise<DataLimits> {
    await this.ready();
    return this.limitsKeeper.limitsOf(product);
  }

  async planRefresh(options: { recheck?: boolean } = {}): Promise<RefreshPlan> {
    await this.ready();
    return (await this.loadRefresher()).plan(options);
  }

  async refreshAll(
    onProgress?: (progress: RefreshProgress) => void,
    options: RefreshRunOptions = {},
  ): Promise<RefreshSummary> {
    await this.ready();
    const summary = await (await this.loadRefresher()).run(onProgress, options);
    this.changes.metaChanged();
    return summary;
  }

  refreshDue(): boolean {
    return this.lastRefresh.due();
  }

  serviceState(): ServiceState {
    const state = this.downtime.state();
    if (!this.throughGateway()) return state;
    return this.gatewayServesDowntime()
      ? { ...state, throughGateway: true, callsToGateway: true }
      : { ...state, callsToGateway: true };
  }

  now(): number {
    return this.parts.clock.now();
  }

  onServiceBack(listener: () => void): Unsubscribe {
    return this.serviceReturn.onBack(listener);
  }

  /** The error of a call not made in a known downtime; noted, so the service's return is told. */
  private downtimeError(code: string, hasCache: boolean, missing?: string) {
    const error = this.downtime.errorFor(code, hasCache, missing);
    // Through a team gateway calls still go in a window: only its not answering is "down".
    if (error && !this.gatewayServesDowntime()) this.serviceReturn.noteDown();
    return error;
  }

  /**
   * Notes what may end release day; if it did, cells waiting for the service try again now
   * (through a team gateway the calls never stopped, so no return to "up" tells them).
   */
  private endingReleaseDay(note: () => void): void {
    const wasClosed = !this.downtime.state().available;
    note();
    // The return's listeners forget the downtime's failures (onBack above) and wake the cells.
    if (wasClosed && this.downtime.state().available) this.serviceReturn.tell();
  }

  /** Signed in through a team gateway (its token says so). */
  private throughGateway(): boolean {
    return this.parts.auth.status().gateway !== null;
  }

  /**
   * Why a call is not made now: a known downtime window, except through a team gateway, which
   * serves what it keeps meanwhile and answers the service's 503 for the rest (docs/gateway.md).
   */
  private callBlockedByDowntime(code: string, hasCache: boolean, missing?: string): PcdError | undefined {
    return this.gatewayServesDowntime() ? undefined : this.downtimeError(code, hasCache, missing);
  }

  /**
   * A team gateway that serves the window answers its calls: a 503 naming the window is an
   * answer, while a server error of its own or no answer at all marks it unreachable.
   */
  private gatewayAnswers(): boolean {
    return (
      this.gatewayServesDowntime() && (this.downtime.state().reachability?.unreachableSince ?? null) === null
    );
  }

  /**
   * Live data through a team gateway: it keeps what it bought and serves it in downtime. Its
   * sandbox calls are the service's own, relayed and never kept, so they wait like direct ones.
   */
  private gatewayServesDowntime(): boolean {
    return this.environment() === "live" && this.throughGateway();
  }

  /**
   * A cell's failed call in its own words. Through a team gateway in a known downtime window, the
   * gateway's 503 means it keeps no copy: said with the window's end, as a call not made says it.
   */
  private explainFailure(code: string, hasCache: boolean, error: PcdError): PcdError {
    if (error.kind !== "unavailable" || !this.gatewayServesDowntime()) return error;
    const missing = hasCache ? undefined : `the team gateway keeps no copy of ${code} yet`;
    return this.downtimeError(code, hasCache, missing) ?? error;
  }

  async cacheInfo(): Promise<CacheInfo> {
    await this.ready();
    const { storage } = this.parts;
    return {
      ...(await this.cache.size()),
      persistent: storage.persistent,
      fallbackReason: storageFallbackReason(storage),
      lastRefresh: this.lastRefresh.at(),
    };
  }

  async clearCache(): Promise<void> {
    await this.ready();
    const keys = this.cache.keys();
    await this.cache.clear();
    await this.catalogStore.clear();
    this.searchIndex?.clear();
    // Cells showing the cleared data recompute (and ask again, or show why they cannot).
    for (const key of keys) this.changes.changed(key);
  }

  async idle(): Promise<void> {
    do {
      await this.batcher.idle();
      await this.seriesSync.idle();
    } while (!this.batcher.isIdle() || this.seriesSync.isBusy());
    // What the calls brought is in storage too (writes are batched and delayed).
    await Promise.all([this.cache.flush(), this.workbookKeys.flushed()]);
  }

  stats(): EngineStats {
    return this.parts.client.stats();
  }

  /**
   * Products (of the current environment) whose plan turned out to have no Series Values
   * History (onMetaChange fires when this list grows). No view shows it yet: the pane does not
   * read it, a cell needing older months says so itself. An addition to the Engine interface.
   */
  historyUnavailable(): ProductId[] {
    const environment = this.environment();
    return PRODUCTS.filter((product) => !this.seriesSync.context(environment, product).historyAvailable);
  }

  private async load(): Promise<void> {
    await this.parts.settings.load();
    // A storage that fails to read leaves the engine working from an empty cache (and
    // saying why), rather than failing every cell at start-up.
    const parts: Array<[string, () => Promise<void>]> = [
      // The workbook's keys first: their cached series are read at start-up, the rest of
      // the (machine-wide) cache when first asked for.
      [
        "workbook keys and their cached series",
        async () => {
          try {
            await this.workbookKeys.load();
          } finally {
            await this.cache.load(this.workbookKeys.list().map((key) => key.id));
          }
        },
      ],
      [
        "catalogs",
        async () => {
          await this.catalogStore.load();
          // Data calls through a gateway name the catalog held, also one kept from before.
          for (const product of PRODUCTS) {
            const at = this.catalogStore.gatewayReadAt("live", product);
            if (at !== undefined) this.parts.client.holdCatalog?.(product, at);
          }
        },
      ],
      ["last refresh", () => this.lastRefresh.load()],
    ];
    await Promise.all(
      parts.map(async ([what, load]) => {
        try {
          await load();
        } catch (error) {
          this.parts.log?.("error", `Could not read the ${what} from storage: ${errorMessage(error)}`);
        }
      }),
    );
    // A catalog read before a restart was an answer: on release day it told the release is out
    // (one read while the release was awaited shows nothing: a team gateway's copy).
    const answeredAt = Math.max(
      ...PRODUCTS.map((product) => this.catalogStore.answeredAt(product) ?? -Infinity),
    );
    if (Number.isFinite(answeredAt)) this.downtime.answeredBefore(answeredAt);
    this.loaded = true;
  }

  private environment(): ServiceEnvironment {
    return this.parts.settings.environment();
  }

  private releaseDay(): number {
    return this.parts.settings.releaseBusinessDay();
  }

  /**
   * The start of the latest release whose data is out: during release-day downtime (the
   * service not yet seen answering) the month's release is not, so it is the one before.
   */
  private latestReleaseOut(): number {
    const { schedule, clock } = this.parts;
    const start = schedule.latestReleaseStart(clock.now(), this.releaseDay());
    const state = this.serviceState();
    if (state.available || state.reason !== "release") return start;
    return schedule.latestReleaseStart(start - 1, this.releaseDay());
  }

  private async preflight(): Promise<void> {
    const state = this.serviceState();
    if (!state.available && state.reason === "release") {
      // The release may already be out before its 22:00 deadline: Series Info (no data
      // request) tells. If it answers, the downtime is over.
      await this.catalogStore.refresh(PRODUCTS);
    }
    // The workbook's cells keep what they show: a refresh that cannot run changes nothing.
    const blocked =
      this.downtime.errorFor(
        "this workbook",
        true,
        "no refresh can run until then, and nothing in the workbook was changed",
      ) ?? (await signInError(this.parts.auth));
    if (blocked) throw blocked;
  }
}

export function assembleEngine(parts: EngineParts): Engine {
  return new EngineCore(parts);
}
