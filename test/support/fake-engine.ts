// An in-memory Engine for unit tests of the custom functions and the headless runner. It
// follows the contract of src/core/engine-api.ts (resolve validates currency/unit against
// the series, getSeries throws only when nothing is cached) and lets a test script the
// rest: failures, hanging calls, change and auth events.
import type {
  AuthStatus,
  CacheInfo,
  Engine,
  EngineSettings,
  EngineStats,
  LimitsReport,
  LimitsRow,
  RefreshPlan,
  RefreshSummary,
  SearchHit,
  SearchOptions,
  SeriesData,
  SeriesRequest,
  ServiceState,
  Unsubscribe,
} from "../../src/core/engine-api";
import { PcdError } from "../../src/core/errors";
import { PRODUCTS, type MonthlyPoint, type ProductId, type SeriesInfo } from "../../src/core/model";
import { CURRENCIES, UNITS, findReference, type ReferenceEntry } from "../../src/core/reference";

export interface FakeSeries {
  info: SeriesInfo;
  finals: MonthlyPoint[];
  forecasts: MonthlyPoint[];
}

export function makeInfo(overrides: Partial<SeriesInfo> & { code: string }): SeriesInfo {
  return {
    product: "energy_price",
    productName: "Energy Price",
    dataType: "energy",
    assessment: `Assessment ${overrides.code}`,
    commodity: "Natural gas",
    coverage: "Germany",
    location: "Germany",
    area: null,
    details: null,
    specification: null,
    remark1: "lag: 1",
    remark2: null,
    lag: 1,
    defaultCurrency: "EUR",
    defaultUnit: "MWh",
    availableCurrencies: ["EUR", "USD"],
    availableUnits: ["MWh", "kWh"],
    hasForecast: true,
    hasPreliminary: false,
    seriesHistChanged: false,
    lastAvailableFinal: "2025-06",
    updatedAt: "2025-07-04",
    raw: {},
    ...overrides,
  };
}

/** Monthly points from `from` for `count` months, values start, start+step, ... */
export function monthlyPoints(from: string, count: number, start = 100, step = 1): MonthlyPoint[] {
  const [year, month] = from.split("-").map(Number) as [number, number];
  return Array.from({ length: count }, (_, index) => {
    const total = year * 12 + (month - 1) + index;
    const label = `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
    return { month: label, value: start + index * step };
  });
}

const SETTINGS: EngineSettings = {
  environment: "live",
  baseUrl: "http://127.0.0.1:1",
  authUrl: "http://127.0.0.1:1",
  productPaths: {
    energy_price: "/energy_price",
    commodity_price: "/commodity_price",
    industry_economics: "/industry_economics",
  },
  releaseBusinessDay: 3,
  autoRefreshAfterRelease: false,
  callTimeoutMs: 1_000,
  historyTimeoutMs: 2_000,
};

export class FakeEngine implements Engine {
  readonly series = new Map<string, FakeSeries>();
  limitsRows: LimitsRow[] = [];
  /** getSeries for these codes throws the error (as if nothing were cached). */
  readonly seriesFailures = new Map<string, PcdError>();
  /** getSeries / lookup for these codes never settles. */
  readonly hanging = new Set<string>();
  /** Thrown by limitsReport() and limits() when set. */
  limitsFailure: PcdError | undefined;
  /** limitsOf(product) throws these (limitsReport() then reports the product apart, as the engine does). */
  readonly productLimitsFailures = new Map<string, PcdError>();
  environment: EngineSettings["environment"] = "live";
  /** Staleness to attach to served data (served from cache after a failed fetch). */
  staleBecause: PcdError | undefined;
  readonly calls = { resolve: 0, getSeries: 0, lookup: 0, search: 0, limits: 0, ready: 0 };
  readonly searches: Array<{ text: string; options: SearchOptions | undefined }> = [];

  private auth: AuthStatus = {
    signedIn: true,
    username: "analyst@example.com",
    environment: "live",
    tokenExpiresAt: null,
  };
  private readonly changeListeners = new Set<(keys: ReadonlySet<string>) => void>();
  private readonly metaListeners = new Set<() => void>();
  private readonly keyListeners = new Map<string, Set<() => void>>();
  private readonly catalogListeners = new Set<() => void>();
  /** Each answer is a new data version: the fake's series may be edited in place between calls. */
  private dataVersion = 0;
  private readonly authListeners = new Set<(status: AuthStatus) => void>();

  constructor(series: FakeSeries[] = []) {
    for (const entry of series) this.series.set(entry.info.code, entry);
  }

  get listenerCount(): number {
    let keyed = 0;
    for (const listeners of this.keyListeners.values()) keyed += listeners.size;
    return (
      this.changeListeners.size +
      this.metaListeners.size +
      this.catalogListeners.size +
      this.authListeners.size +
      keyed
    );
  }

  /** As the engine's change events: per-key listeners once per change, then the onChange ones. */
  emitChange(keys: Iterable<string>): void {
    const set = new Set(keys);
    const perKey = new Set<() => void>();
    for (const key of set) for (const listener of this.keyListeners.get(key) ?? []) perKey.add(listener);
    for (const listener of perKey) listener();
    for (const listener of [...this.changeListeners]) listener(set);
  }

  /** A catalog change: meta and catalog listeners hear it. */
  emitMeta(): void {
    for (const listener of [...this.metaListeners]) listener();
    for (const listener of [...this.catalogListeners]) listener();
  }

  /** Only the allowances moved: catalog listeners do not hear it. */
  emitLimits(): void {
    for (const listener of [...this.metaListeners]) listener();
  }

  setAuth(status: Partial<AuthStatus>): void {
    this.auth = { ...this.auth, ...status };
    for (const listener of [...this.authListeners]) listener(this.auth);
  }

  async ready(): Promise<void> {
    this.calls.ready += 1;
  }

  getSettings(): EngineSettings {
    return { ...SETTINGS, environment: this.environment };
  }

  async updateSettings(patch: Partial<EngineSettings>): Promise<EngineSettings> {
    return { ...SETTINGS, ...patch };
  }

  async signIn(username: string): Promise<AuthStatus> {
    this.setAuth({ signedIn: true, username });
    return this.auth;
  }

  async signOut(): Promise<void> {
    this.setAuth({ signedIn: false, username: null });
  }

  authStatus(): AuthStatus {
    return this.auth;
  }

  onAuthChange(listener: (status: AuthStatus) => void): Unsubscribe {
    return this.subscribe(this.authListeners, listener);
  }

  async lookup(code: string): Promise<SeriesInfo> {
    this.calls.lookup += 1;
    if (this.hanging.has(code)) return new Promise<never>(() => undefined);
    this.requireSignIn();
    const entry = this.series.get(code);
    if (!entry)
      throw new PcdError("not_found", `Unknown code ${code}: it is not in your subscription's catalog.`);
    return entry.info;
  }

  async catalog(): Promise<SeriesInfo[]> {
    return [...this.series.values()].map((entry) => entry.info);
  }

  async search(text: string, options?: SearchOptions): Promise<SearchHit[]> {
    this.calls.search += 1;
    this.searches.push({ text, options });
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    return [...this.series.values()]
      .map(({ info }) => info)
      .filter((info) => options?.product === undefined || info.product === options.product)
      .map((info) => {
        const haystack = `${info.code} ${info.assessment} ${info.commodity} ${info.coverage}`.toLowerCase();
        return { info, score: words.filter((word) => haystack.includes(word)).length };
      })
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options?.limit ?? 20);
  }

  async resolve(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
  ): Promise<SeriesRequest> {
    this.calls.resolve += 1;
    const info = await this.lookup(code);
    const industryNonUtility = info.product === "industry_economics" && info.dataType !== "utilities";
    const currencyId = this.option(
      info,
      "currency",
      currency,
      CURRENCIES,
      info.availableCurrencies,
      info.defaultCurrency,
      industryNonUtility,
    );
    const unitId = this.option(
      info,
      "unit",
      unit,
      UNITS,
      info.availableUnits,
      info.defaultUnit,
      industryNonUtility,
    );
    const key = `${this.auth.environment}|${info.product}|${code}|${currencyId ?? "default"}|${unitId ?? "default"}`;
    return { key, info, currencyId, unitId };
  }

  async getSeries(request: SeriesRequest): Promise<SeriesData> {
    this.calls.getSeries += 1;
    const code = request.info.code;
    if (this.hanging.has(code)) return new Promise<never>(() => undefined);
    const failure = this.seriesFailures.get(code);
    if (failure) throw failure;
    const entry = this.series.get(code);
    if (!entry) throw new PcdError("not_found", `Unknown code ${code}.`);
    const currency =
      request.currencyId === null
        ? entry.info.defaultCurrency
        : (CURRENCIES.find((c) => c.id === request.currencyId)?.shortName ?? null);
    const unit =
      request.unitId === null
        ? entry.info.defaultUnit
        : (UNITS.find((u) => u.id === request.unitId)?.shortName ?? null);
    const data: SeriesData = {
      key: request.key,
      info: entry.info,
      finals: entry.finals,
      forecasts: entry.forecasts,
      currency,
      unit,
      updatedAt: entry.info.updatedAt,
      lastFinal: entry.finals[entry.finals.length - 1]?.month ?? null,
      fetchedAt: 0,
      version: ++this.dataVersion,
    };
    return this.staleBecause ? { ...data, staleBecause: this.staleBecause } : data;
  }

  peek(): SeriesData | undefined {
    return undefined;
  }

  /** How many cells hold each key right now (streaming cells retain the keys they show). */
  readonly held = new Map<string, number>();

  retainKey(key: string): Unsubscribe {
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  onChange(listener: (keys: ReadonlySet<string>) => void): Unsubscribe {
    return this.subscribe(this.changeListeners, listener);
  }

  onKeyChange(key: string, listener: () => void): Unsubscribe {
    let listeners = this.keyListeners.get(key);
    if (listeners === undefined) {
      listeners = new Set();
      this.keyListeners.set(key, listeners);
    }
    const unsubscribe = this.subscribe(listeners, listener);
    return () => {
      unsubscribe();
      if (this.keyListeners.get(key)?.size === 0) this.keyListeners.delete(key);
    };
  }

  /** Keys some cell listens to right now. */
  get watchedKeys(): string[] {
    return [...this.keyListeners.keys()];
  }

  onMetaChange(listener: () => void): Unsubscribe {
    return this.subscribe(this.metaListeners, listener);
  }

  onCatalogChange(listener: () => void): Unsubscribe {
    return this.subscribe(this.catalogListeners, listener);
  }

  async limits(): Promise<LimitsRow[]> {
    return (await this.limitsReport()).rows;
  }

  /** As the engine: failed products are reported apart; all rows missing throws the first failure. */
  async limitsReport(): Promise<LimitsReport> {
    this.calls.limits += 1;
    this.requireSignIn();
    if (this.limitsFailure) throw this.limitsFailure;
    const unavailable = PRODUCTS.flatMap((product) => {
      const error = this.productLimitsFailures.get(product);
      return error ? [{ product, message: error.message, error }] : [];
    });
    const rows = this.limitsRows.filter((row) => !this.productLimitsFailures.has(row.product));
    if (rows.length === 0 && unavailable[0]) throw unavailable[0].error;
    return { rows, unavailable };
  }

  async limitsOf(product: ProductId): Promise<Record<string, { remaining: number; total: number }>> {
    const failure = this.productLimitsFailures.get(product);
    if (failure) throw failure;
    const rows = this.limitsRows.filter((row) => row.product === product);
    return Object.fromEntries(
      rows.map((row) => [row.dataset, { remaining: row.remaining, total: row.total }]),
    );
  }

  async planRefresh(): Promise<RefreshPlan> {
    return { items: [], cost: [], totalRequests: 0, overBudget: [] };
  }

  async refreshAll(): Promise<RefreshSummary> {
    return {
      updated: 0,
      revised: 0,
      unchanged: 0,
      failed: 0,
      requestsUsed: 0,
      failures: [],
      startedAt: 0,
      finishedAt: 0,
    };
  }

  refreshDue(): boolean {
    return false;
  }

  serviceState(): ServiceState {
    return { available: true, reason: null, until: null, nextRelease: 0, nextMaintenance: 0 };
  }

  async cacheInfo(): Promise<CacheInfo> {
    return { entries: 0, bytes: 0, persistent: false, fallbackReason: null, lastRefresh: null };
  }

  async clearCache(): Promise<void> {}

  async idle(): Promise<void> {}

  stats(): EngineStats {
    return {
      http: {
        access_token: 0,
        series_info: 0,
        series_values: this.calls.getSeries,
        series_hist: 0,
        data_limits: 0,
      },
      dataRequests: this.calls.getSeries,
    };
  }

  private requireSignIn(): void {
    if (!this.auth.signedIn)
      throw new PcdError("not_signed_in", "Not signed in to PCD: sign in from the PCD task pane.");
  }

  private option(
    info: SeriesInfo,
    argument: "currency" | "unit",
    input: string | number | null,
    table: readonly ReferenceEntry[],
    available: readonly string[],
    fallback: string | null,
    forbidden: boolean,
  ): number | null {
    if (input === null) return null;
    if (forbidden) {
      throw new PcdError(
        "input",
        `${argument} does not apply to ${info.code}: only utilities series of industry economics take a ${argument}.`,
        { argument },
      );
    }
    const entry = findReference(table, input);
    if (!entry || !available.includes(entry.shortName)) {
      throw new PcdError(
        "input",
        `${argument} "${String(input)}" is not offered by ${info.code}; it offers ${available.join(", ")}.`,
        { argument, allowed: available },
      );
    }
    return entry.shortName === fallback ? null : entry.id;
  }

  private subscribe<T>(set: Set<T>, listener: T): Unsubscribe {
    set.add(listener);
    return () => set.delete(listener);
  }
}
