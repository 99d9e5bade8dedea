// The Engine facade over the data half. It depends on the transport half only through
// small ports (auth, settings, schedule, ServiceClient), so the whole engine can be
// exercised with fakes; createEngine (engine.ts) plugs in the real transport.
import { Batcher, type BatchGate, type BatchItem } from "./batcher";
import { DataCache, type CacheEntry } from "./cache";
import { Catalog, CATALOG_MAX_AGE_MS } from "./catalog";
import { ChangeEvents, type Defer } from "./change-events";
import type {
  AuthStatus,
  CacheInfo,
  Engine,
  EngineSettings,
  EngineStats,
  LimitsReport,
  LimitsRow,
  LimitsUnavailable,
  RefreshPlan,
  RefreshProgress,
  RefreshSummary,
  SearchHit,
  SearchOptions,
  SeriesData,
  SeriesRequest,
  ServiceReachability,
  ServiceState,
  Unsubscribe,
} from "./engine-api";
import type { Clock, KeyValueStorage, Logger } from "./environment";
import { errorMessage, PcdError, toPcdError } from "./errors";
import { PRODUCTS, type DataLimits, type ProductId, type SeriesInfo, type ServiceEnvironment } from "./model";
import { QuotaLedger } from "./quota-ledger";
import { Refresher } from "./refresh";
import { parseRequestKey } from "./request-key";
import { resolveSeriesRequest } from "./resolve-request";
import { SearchIndex } from "./search-index";
import { WHOLE_SERIES, type SeriesNeed } from "./series-need";
import { judgeServing, missingError } from "./serving";
import { SeriesSync } from "./series-sync";
import { planSync } from "./sync-planner";
import type { ServiceClient } from "./service-client";
import { WorkbookKeys } from "./workbook-keys";

/** Data Limits answers are reused this long by limits() (the ledger decrements meanwhile). */
export const LIMITS_MAX_AGE_MS = 5 * 60 * 1000;

export interface AuthPort {
  signIn(username: string, password: string): Promise<AuthStatus>;
  token(): Promise<string>;
  signOut(): void;
  status(): AuthStatus;
  onChange(listener: (status: AuthStatus) => void): Unsubscribe;
  /** Signs out at once when the service or token address changed (listeners hear it now). */
  checkSettings?(): void;
}

export interface SettingsPort {
  load(): Promise<EngineSettings>;
  current(): EngineSettings;
  update(patch: Partial<EngineSettings>): Promise<EngineSettings>;
}

export interface SchedulePort {
  serviceState(now: number, releaseBusinessDay: number, options?: { releaseDoneAt?: number }): ServiceState;
  latestReleaseStart(now: number, releaseBusinessDay: number): number;
}

export interface EngineParts {
  client: ServiceClient & {
    stats(): EngineStats;
    /** What the client's last calls observed (absent in fakes that do not observe). */
    reachability?(): ServiceReachability;
    onReachabilityChange?(listener: () => void): Unsubscribe;
  };
  auth: AuthPort;
  settings: SettingsPort;
  schedule: SchedulePort;
  storage: KeyValueStorage;
  /** Where the workbook's keys are kept (default: storage). */
  workbookStorage?: KeyValueStorage;
  clock: Clock;
  log?: Logger;
  batchWindowMs?: number;
  batchMaxWaitMs?: number;
  /** How change events are deferred to coalesce a tick (default setTimeout 0). */
  defer?: Defer;
}

function hasFallbackReason(
  storage: KeyValueStorage,
): storage is KeyValueStorage & { fallbackReason(): string | null } {
  return typeof (storage as { fallbackReason?: unknown }).fallbackReason === "function";
}

/** Data versions are unique in the process (across engines), so a version names one series state. */
let nextDataVersion = 0;

export class EngineCore implements Engine {
  private readonly changes: ChangeEvents;
  private readonly catalogStore: Catalog;
  private readonly cache: DataCache;
  private readonly ledger: QuotaLedger;
  private readonly batcher: Batcher;
  private readonly seriesSync: SeriesSync;
  private readonly workbookKeys: WorkbookKeys;
  private readonly refresher: Refresher;
  private readonly limitsFetching = new Map<string, Promise<DataLimits>>();
  /** Products whose limits were read ahead this session (cleared at sign-in). */
  private readonly limitsPrefetched = new Set<ProductId>();
  private searchIndex: { index: SearchIndex; version: number; environment: ServiceEnvironment } | undefined;
  private loading: Promise<void> | undefined;
  /** True once load() is done (the synchronous fast path needs the stored state read). */
  private loaded = false;
  private releaseDoneAt: number | undefined;
  private readonly entryVersions = new WeakMap<CacheEntry, number>();
  private readonly dataOfEntry = new WeakMap<CacheEntry, SeriesData>();

  constructor(private readonly parts: EngineParts) {
    const { storage, log } = parts;
    const now = (): number => parts.clock.now();
    this.changes = new ChangeEvents(log, parts.defer);
    // The pane's outage banner and Status tab follow reachability as it changes.
    parts.client.onReachabilityChange?.(() => this.changes.metaChanged());
    this.catalogStore = new Catalog({
      client: parts.client,
      storage,
      now,
      environment: () => this.environment(),
      log,
      onChange: () => this.changes.metaChanged(),
      onFetched: () => this.noteServiceAnswered(),
      onFetching: (product) => this.prefetchLimitsOfWorkbook(product),
      inMaintenance: () => this.serviceState().reason === "maintenance",
    });
    this.cache = new DataCache(storage, log);
    this.ledger = new QuotaLedger({
      now,
      latestReleaseStart: () => parts.schedule.latestReleaseStart(now(), this.releaseDay()),
      nextRelease: () => this.serviceState().nextRelease,
    });
    this.batcher = new Batcher({
      client: parts.client,
      gate: this.quotaGate(),
      windowMs: parts.batchWindowMs,
      maxWaitMs: parts.batchMaxWaitMs,
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
    this.workbookKeys = new WorkbookKeys(parts.workbookStorage ?? storage, log);
    this.refresher = new Refresher({
      catalog: this.catalogStore,
      sync: this.seriesSync,
      workbookKeys: this.workbookKeys,
      storage,
      now,
      environment: () => this.environment(),
      latestReleaseStart: () => parts.schedule.latestReleaseStart(now(), this.releaseDay()),
      // Refresh-all reads Data Limits afresh (a few minutes' reuse), so its cost preview is current.
      ensureLimits: (products) => this.ensureLimits(products, LIMITS_MAX_AGE_MS),
      remaining: (product, dataset) =>
        this.environment() === "live" ? this.ledger.remaining("live", product, dataset) : null,
      codesCharged: () => this.batcher.codesCharged(),
      codesUnconfirmed: () => this.batcher.codesUnconfirmed(),
      preflight: () => this.preflight(),
      log,
    });
  }

  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
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

  async signIn(username: string, password: string): Promise<AuthStatus> {
    await this.ready();
    const status = await this.parts.auth.signIn(username, password);
    // Another account may have other allowances: start the ledger afresh.
    this.ledger.clear();
    this.limitsPrefetched.clear();
    this.changes.metaChanged();
    return status;
  }

  async signOut(options: { clearCache?: boolean } = {}): Promise<void> {
    this.parts.auth.signOut();
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

  async lookup(code: string): Promise<SeriesInfo> {
    await this.ready();
    return this.catalogStore.lookup(code);
  }

  async catalog(product?: ProductId): Promise<SeriesInfo[]> {
    await this.ready();
    return product ? this.catalogStore.list(product) : this.catalogStore.all();
  }

  async search(text: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.ready();
    if (options.product) await this.catalogStore.list(options.product);
    else await this.catalogStore.all();
    const environment = this.environment();
    const version = this.catalogStore.version();
    if (
      !this.searchIndex ||
      this.searchIndex.version !== version ||
      this.searchIndex.environment !== environment
    ) {
      this.searchIndex = { index: new SearchIndex(this.catalogStore.loaded()), version, environment };
    }
    return this.searchIndex.index.search(text, options);
  }

  async resolve(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
  ): Promise<SeriesRequest> {
    await this.ready();
    const info = await this.catalogStore.lookup(code);
    this.prefetchLimits(info.product);
    return resolveSeriesRequest(this.environment(), info, currency, unit);
  }

  async getSeries(request: SeriesRequest, need: SeriesNeed = WHOLE_SERIES): Promise<SeriesData> {
    await this.ready();
    const { key } = request;
    const { environment } = parseRequestKey(key);
    this.workbookKeys.add(key, need);
    const info = this.catalogStore.find(request.info.code) ?? request.info;
    const cached = this.cache.get(key);
    if (cached && this.seriesSync.plan(request, need, info).action === "none")
      return this.serve(key, info, need);

    let blocked: PcdError | undefined;
    if (environment !== this.environment()) {
      blocked = new PcdError(
        "not_signed_in",
        `${info.code} asks for ${environment} data but PCD is set to ${this.environment()}: switch the environment in the task pane.`,
      );
    }
    blocked ??= this.downtimeError(info.code, cached !== undefined);
    blocked ??= await this.signInError();
    if (blocked) return this.serve(key, info, need, blocked);

    try {
      await this.seriesSync.sync(request, need, info);
    } catch (error) {
      return this.serve(key, info, need, toPcdError(error));
    }
    return this.serve(key, info, need);
  }

  lookupNow(code: string): SeriesInfo | undefined {
    if (!this.loaded) return undefined;
    const info = this.catalogStore.find(code.trim());
    // A record older than the catalog's age would be refreshed by lookup: the slow path does that.
    const fetchedAt = info && this.catalogStore.fetchedAt(info.product);
    if (!info || fetchedAt == null || this.parts.clock.now() - fetchedAt >= CATALOG_MAX_AGE_MS)
      return undefined;
    return info;
  }

  serveNow(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
    need: SeriesNeed,
  ): SeriesData | undefined {
    const info = this.lookupNow(code);
    if (!info) return undefined;
    let request: SeriesRequest;
    try {
      request = resolveSeriesRequest(this.environment(), info, currency, unit);
    } catch {
      return undefined;
    }
    const entry = this.cache.get(request.key);
    if (!entry) return undefined;
    // What seriesSync.plan and serve decide, with the context read once (this runs per cell).
    const context = this.seriesSync.context(this.environment(), info.product);
    if (planSync(entry, info, need, context).action !== "none") return undefined;
    if (judgeServing(entry, info, need, context).kind !== "fresh") return undefined;
    this.prefetchLimits(info.product);
    this.workbookKeys.add(request.key, need);
    return this.toData(entry, info);
  }

  /**
   * Answers a cell from the cache when it holds the months the cell reads: fresh, or as a
   * complete earlier release had them when `failure` kept it from being brought up to date.
   * Otherwise throws the failure, saying what it kept from the cell.
   */
  private serve(key: string, info: SeriesInfo, need: SeriesNeed, failure?: PcdError): SeriesData {
    const entry = this.cache.get(key);
    const context = this.seriesSync.context(parseRequestKey(key).environment, info.product);
    const serving = judgeServing(entry, info, need, context);
    if (entry && serving.kind === "fresh") return this.toData(entry, info);
    if (entry && serving.kind === "stale" && failure) return this.toData(entry, info, failure);
    if (!failure) {
      if (serving.kind === "missing" && entry) {
        // Nothing failed, yet the months are not to be had: the plan has no History.
        throw new PcdError(
          "plan",
          `Your plan has no Series Values History for ${info.product}: ${serving.what} of ${info.code} are not available.`,
        );
      }
      if (!entry) throw new PcdError("not_found", `The service returned no data for ${info.code}.`);
      return this.toData(entry, info);
    }
    if (!entry) throw failure;
    throw missingError(failure, info.code, serving.kind === "missing" ? serving.what : "the data");
  }

  peek(key: string): SeriesData | undefined {
    const entry = this.cache.get(key);
    if (!entry) return undefined;
    const info = this.catalogStore.find(parseRequestKey(key).code);
    return info ? this.toData(entry, info) : undefined;
  }

  retainKey(key: string, need: SeriesNeed = WHOLE_SERIES): Unsubscribe {
    return this.workbookKeys.retain(key, need);
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

  async limitsReport(): Promise<LimitsReport> {
    await this.ready();
    if (this.environment() === "sandbox") return { rows: [], unavailable: [] };
    const results = await Promise.allSettled(PRODUCTS.map((product) => this.limitsOf(product)));
    const rows: LimitsRow[] = [];
    const unavailable: LimitsUnavailable[] = [];
    results.forEach((result, i) => {
      const product = PRODUCTS[i];
      if (!product) return;
      if (result.status === "rejected") {
        const error = toPcdError(result.reason);
        this.parts.log?.("warn", `Data Limits of ${product} failed: ${error.message}`);
        unavailable.push({
          product,
          message: error.message.trim() || `Data Limits of ${product} failed (${error.kind}).`,
          error,
        });
        return;
      }
      for (const [dataset, allowance] of Object.entries(result.value)) {
        const unconfirmed = this.ledger.unconfirmed(this.environment(), product, dataset);
        rows.push({ product, dataset, ...allowance, ...(unconfirmed > 0 ? { unconfirmed } : {}) });
      }
    });
    // Nothing to show but failures: the cause itself is the answer (a cell shows it as an
    // error and retries a passing one, which a table of failure notes would not).
    const firstFailure = results.find((result) => result.status === "rejected");
    if (rows.length === 0 && firstFailure) throw firstFailure.reason;
    return { rows, unavailable };
  }

  async limitsOf(product: ProductId): Promise<DataLimits> {
    await this.ready();
    const environment = this.environment();
    // docs/service.md §4.7: monthly code limits do not apply to the sandbox.
    if (environment === "sandbox") return {};
    if (this.ledger.isCurrent(environment, product, LIMITS_MAX_AGE_MS)) {
      return this.ledger.limitsOf(environment, product) ?? {};
    }
    try {
      return await this.fetchLimits(environment, product);
    } catch (error) {
      const known = this.ledger.limitsOf(environment, product);
      if (known) return known;
      throw error;
    }
  }

  async planRefresh(): Promise<RefreshPlan> {
    await this.ready();
    return this.refresher.plan();
  }

  async refreshAll(onProgress?: (progress: RefreshProgress) => void): Promise<RefreshSummary> {
    await this.ready();
    const summary = await this.refresher.run(onProgress);
    this.changes.metaChanged();
    return summary;
  }

  refreshDue(): boolean {
    const since = this.refresher.lastRefresh() ?? this.oldestWorkbookFetch();
    if (since === null) return false;
    return since < this.parts.schedule.latestReleaseStart(this.parts.clock.now(), this.releaseDay());
  }

  serviceState(): ServiceState {
    const now = this.parts.clock.now();
    const scheduled = this.parts.schedule.serviceState(now, this.releaseDay(), {
      releaseDoneAt: this.releaseDoneAt,
    });
    const reachability = this.parts.client.reachability?.();
    if (!reachability) return scheduled;
    // A maintenance the service announced itself (503 with an end) counts like a scheduled
    // one until that end: no call could succeed meanwhile.
    const announced = reachability.maintenanceUntil;
    if (scheduled.available && announced !== null && announced > now) {
      return { ...scheduled, available: false, reason: "maintenance", until: announced, reachability };
    }
    return { ...scheduled, reachability };
  }

  async cacheInfo(): Promise<CacheInfo> {
    await this.ready();
    const { storage } = this.parts;
    return {
      ...this.cache.size(),
      persistent: storage.persistent,
      fallbackReason: hasFallbackReason(storage) ? storage.fallbackReason() : null,
      lastRefresh: this.refresher.lastRefresh(),
    };
  }

  async clearCache(): Promise<void> {
    await this.ready();
    const keys = this.cache.keys();
    await this.cache.clear();
    await this.catalogStore.clear();
    this.searchIndex = undefined;
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
      ["cache", () => this.cache.load()],
      ["catalogs", () => this.catalogStore.load()],
      ["workbook keys", () => this.workbookKeys.load()],
      ["last refresh", () => this.refresher.load()],
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
    this.loaded = true;
  }

  private environment(): ServiceEnvironment {
    return this.parts.settings.current().environment;
  }

  private releaseDay(): number {
    return this.parts.settings.current().releaseBusinessDay;
  }

  private toData(entry: CacheEntry, info: SeriesInfo, staleBecause?: PcdError): SeriesData {
    // Every cell showing this entry gets the same object (no copy per cell or per call).
    const shared = this.dataOfEntry.get(entry);
    if (shared !== undefined && shared.info === info && staleBecause === undefined) return shared;
    const data: SeriesData = {
      key: entry.key,
      info,
      finals: entry.finals,
      forecasts: entry.forecasts,
      currency: entry.currency,
      unit: entry.unit,
      updatedAt: entry.updatedAt,
      lastFinal: entry.lastFinal,
      fetchedAt: entry.fetchedAt,
      version: this.versionOf(entry),
      ...(staleBecause ? { staleBecause } : {}),
    };
    if (staleBecause === undefined) this.dataOfEntry.set(entry, data);
    return data;
  }

  /** Cache entries are replaced whole, never changed in place: an entry object is a version. */
  private versionOf(entry: CacheEntry): number {
    let version = this.entryVersions.get(entry);
    if (version === undefined) {
      nextDataVersion += 1;
      version = nextDataVersion;
      this.entryVersions.set(entry, version);
    }
    return version;
  }

  /** During a known downtime window no call is made at all (it could only fail). */
  private downtimeError(code: string, hasCache: boolean, missing?: string): PcdError | undefined {
    const state = this.serviceState();
    if (state.available || state.until === null) return undefined;
    const what = state.reason === "release" ? "for the monthly data release" : "for maintenance";
    const deadline = state.reason === "release" ? " at the latest" : "";
    const tail = missing ?? (hasCache ? `showing cached data for ${code}` : `no cached data for ${code} yet`);
    if (state.until === state.reachability?.maintenanceUntil) {
      return new PcdError(
        "unavailable",
        `The service said it is in maintenance until ${new Date(state.until).toISOString()}; ${tail}.`,
        { until: state.until },
      );
    }
    return new PcdError(
      "unavailable",
      `The service is down ${what} until 22:00 US Central Time${deadline} (${new Date(state.until).toISOString()}); ${tail}.`,
      { until: state.until },
    );
  }

  /** The not_signed_in error of Auth, or undefined when a token can be had. */
  private async signInError(): Promise<PcdError | undefined> {
    if (this.parts.auth.status().signedIn) return undefined;
    try {
      await this.parts.auth.token();
      return undefined;
    } catch (error) {
      return toPcdError(error);
    }
  }

  /**
   * On release day the service is down "until the data is released" (22:00 Central at
   * the latest). An answer from it means the release is out: data calls may go again.
   */
  private noteServiceAnswered(): void {
    const state = this.serviceState();
    if (!state.available && state.reason === "release") this.releaseDoneAt = this.parts.clock.now();
  }

  private async preflight(): Promise<void> {
    const state = this.serviceState();
    if (!state.available && state.reason === "release") {
      // The release may already be out before its 22:00 deadline: Series Info (no data
      // request) tells. If it answers, the downtime is over.
      await this.catalogStore.refresh(PRODUCTS);
    }
    const blocked = this.downtimeError("this workbook", false) ?? (await this.signInError());
    if (blocked) throw blocked;
  }

  private oldestWorkbookFetch(): number | null {
    let oldest: number | null = null;
    for (const key of this.workbookKeys.list()) {
      const fetchedAt = this.cache.get(key)?.fetchedAt;
      if (fetchedAt !== undefined && (oldest === null || fetchedAt < oldest)) oldest = fetchedAt;
    }
    return oldest;
  }

  private async ensureLimits(products: readonly ProductId[], maxAgeMs = Infinity): Promise<void> {
    const environment = this.environment();
    if (environment !== "live") return;
    await Promise.all(
      products.map(async (product) => {
        if (this.ledger.isCurrent(environment, product, maxAgeMs)) return;
        try {
          await this.fetchLimits(environment, product);
        } catch (error) {
          // Without Data Limits the allowance is unknown; the service still enforces it.
          this.parts.log?.(
            "warn",
            `Data Limits of ${product} unavailable (${errorMessage(error)}); sending without a local check`,
          );
        }
      }),
    );
  }

  /**
   * The first data call of a product needs its allowances: reading them ahead takes a round
   * trip off that call's path (W1 in BENCHMARKS.md). Data Limits calls cost no data request
   * but count against the daily quota, so only products the workbook may use are read: those
   * its saved keys name, or, in a workbook that names none yet, every product whose catalog
   * is fetched (at most two calls more, once a session); and the product of each code a cell
   * resolves.
   */
  private prefetchLimits(product: ProductId): void {
    // Once per product and session: every cell resolves a code (so this check comes first,
    // it is on every recalculation's path), and a read that failed is retried by the first
    // data call of the product anyway (the batcher's prepare).
    if (this.limitsPrefetched.has(product)) return;
    if (this.environment() !== "live" || !this.parts.auth.status().signedIn) return;
    this.limitsPrefetched.add(product);
    void this.ensureLimits([product]);
  }

  /** A product's catalog is being fetched: its limits too, if the workbook may use it. */
  private prefetchLimitsOfWorkbook(product: ProductId): void {
    const named = new Set(this.workbookKeys.list().map((key) => parseRequestKey(key).product));
    if (named.size === 0 || named.has(product)) this.prefetchLimits(product);
  }

  private fetchLimits(environment: ServiceEnvironment, product: ProductId): Promise<DataLimits> {
    const scope = `${environment}|${product}`;
    const running = this.limitsFetching.get(scope);
    if (running) return running;
    // A call in a known downtime window could only fail, after renewing the token for nothing.
    const down = this.downtimeError(product, false, `the Data Limits of ${product} cannot be read meanwhile`);
    if (down) return Promise.reject(down);
    const fetching = (async () => {
      const limits = await this.parts.client.dataLimits(product);
      this.ledger.record(environment, product, limits);
      this.changes.limitsChanged();
      return this.ledger.limitsOf(environment, product) ?? {};
    })().finally(() => this.limitsFetching.delete(scope));
    this.limitsFetching.set(scope, fetching);
    return fetching;
  }

  /** Settles what a call's codes cost in the ledger; the usage bars follow. */
  private settleCharges(items: readonly BatchItem[], outcome: "refund" | "confirm" | "unanswered"): void {
    const first = items[0];
    if (!first) return;
    const datasets = items.map((item) => item.dataset);
    this.ledger[outcome](first.environment, first.product, datasets);
    // The allowances moved, not the catalog: INFO and SEARCH cells must not re-run per call.
    if (first.environment === "live") this.changes.limitsChanged();
  }

  private quotaGate(): BatchGate {
    return {
      // Runs before the call waits for its send slot: the allowances (so admit never waits
      // on the service) and the token (a renewal or "not signed in" is found out before the
      // call holds a place in flight and a rate-limit turn it would then waste).
      prepare: async (item) => {
        await Promise.all([this.parts.auth.token(), this.ensureLimits([item.product])]);
      },
      admit: async (items) => {
        const first = items[0];
        if (!first) return { admitted: [], refused: [] };
        const admission = this.ledger.admit(first.environment, first.product, items, (item) => item.dataset);
        if (first.environment === "live") this.changes.limitsChanged();
        return admission;
      },
      refund: (items) => this.settleCharges(items, "refund"),
      confirm: (items) => this.settleCharges(items, "confirm"),
      unanswered: (items) => this.settleCharges(items, "unanswered"),
      quotaRefused: (items, error) => {
        const first = items[0];
        // Only a refusal that names a dataset blocks it: a daily quota or a plan limit
        // must not lock a dataset until the next release.
        const said = error.details.serverMessage ?? error.message;
        const dataset =
          error.details.dataset ??
          [...new Set(items.map((item) => item.dataset))].find((name) => said.includes(`'${name}'`));
        if (!first || dataset === undefined) return () => error;
        const blocked = this.ledger.block(first.environment, first.product, dataset, error);
        this.changes.limitsChanged();
        return (item: BatchItem) => (item.dataset === dataset ? blocked : "retry");
      },
    };
  }
}

export function assembleEngine(parts: EngineParts): Engine {
  return new EngineCore(parts);
}
