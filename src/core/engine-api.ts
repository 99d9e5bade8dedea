// The engine's public API: the only thing custom functions, the task pane, the ribbon
// commands and the headless runner may use. Implemented by createEngine (engine.ts).
import type { PcdError } from "./errors";
import type { ExternalTokenSource } from "./token-source";
import type { RequestKey } from "./request-key";
import type { SeriesReleaseChanges } from "./release-changes";
import type { PointColumns } from "./point-columns";
import type { SeriesNeed } from "./series-need";
import type {
  DataLimits,
  MemberBudget,
  Month,
  Operation,
  ProductId,
  SeriesInfo,
  ServiceEnvironment,
} from "./model";

export interface EngineSettings {
  environment: ServiceEnvironment;
  /**
   * Service address ({base_url}); HTTPS required except for localhost / 127.0.0.1.
   * Empty until the host or the user gives one (cells then say so).
   */
  baseUrl: string;
  /** Token address ({auth_url}); empty like baseUrl until one is given. */
  authUrl: string;
  /** Base path per product (docs/service.md §6.8: keep every base path a setting). */
  productPaths: Record<ProductId, string>;
  /** The monthly release day: the Nth business day (Mon-Fri) of the month (default 3). */
  releaseBusinessDay: number;
  /** Run refresh-all by itself after a new monthly release (else the pane offers it). */
  autoRefreshAfterRelease: boolean;
  /** Per-call timeouts (ms): Series Values and the rest / Series Values History. */
  callTimeoutMs: number;
  historyTimeoutMs: number;
}

export interface AuthStatus {
  signedIn: boolean;
  username: string | null;
  environment: ServiceEnvironment;
  /** Epoch ms when the current token expires, null when there is none. */
  tokenExpiresAt: number | null;
  /**
   * Signed in through a team gateway (the service address is the gateway's; its token names
   * the member): the member signed in. Null for the service's own sign-in and when signed out.
   */
  gateway: { member: string } | null;
}

/** A validated data request: what one cell asks for, before date filtering. */
export interface SeriesRequest {
  /** requestKey.id: what cells hold and subscribe to, and the cache's key. */
  key: string;
  /** Environment, product, code, currency and unit IDs (null = the series default, also when spelled out). */
  requestKey: RequestKey;
  info: SeriesInfo;
}

export interface SeriesData {
  key: string;
  info: SeriesInfo;
  /** Oldest first. */
  finals: PointColumns;
  forecasts: PointColumns;
  /** Currency / unit short names as the service applied them. */
  currency: string | null;
  unit: string | null;
  updatedAt: string | null;
  lastFinal: Month | null;
  /** Epoch ms of the last successful fetch. */
  fetchedAt: number;
  /**
   * The data version: a new number (never reused in the process) whenever the key's
   * cached series is replaced. Equal key and version mean equal finals and forecasts, so
   * shaped results can be built once per version and shared (src/functions/shape).
   */
  version: number;
  /** Set when this is cached data served because a fetch failed (the cell still shows data). */
  staleBecause?: PcdError;
  /**
   * Whether the finals held start at the series' first month (its History was fetched).
   * False: only the recent part a cell needed is cached, and the series may start earlier,
   * so a message must not quote the held span as the series'. Absent: not known.
   */
  fromSeriesStart?: boolean;
}

export interface SearchOptions {
  product?: ProductId;
  limit?: number;
  coverage?: string;
  commodity?: string;
  hasForecast?: boolean;
}

export interface SearchHit {
  info: SeriesInfo;
  score: number;
}

export interface LimitsRow {
  product: ProductId;
  dataset: string;
  /** What remains after the charges the service confirmed (its Data Limits, less 2xx answers since). */
  remaining: number;
  total: number;
  /**
   * Data requests sent whose charge is not confirmed (in flight, or their call got no
   * answer): shown apart, settled by the next Data Limits read. Absent: none known.
   */
  unconfirmed?: number;
  /**
   * Through a team gateway that gives the signed-in member a budget: that budget and what
   * remains of it (less 2xx answers since, like remaining). remaining and total stay the
   * team's. Absent: no member budget (the service itself, or a member without one).
   */
  member?: MemberBudget;
}

/** A product whose Data Limits could not be read (no answer and none read before). */
export interface LimitsUnavailable {
  product: ProductId;
  /** Why, for people: the error's (redacted) message, never empty. */
  message: string;
  /** The failure itself, so a cell can fail with its kind (and retry a passing one). */
  error: PcdError;
}

export interface LimitsReport {
  rows: LimitsRow[];
  /**
   * Products left out of rows because their limits could not be read: a missing
   * product must read as "unknown right now", never as "not subscribed".
   */
  unavailable: LimitsUnavailable[];
  /**
   * Products the user's Reload could not read again (a downtime, a failure): their rows are
   * the reading of readAt. Absent: every product was read as asked.
   */
  notReread?: LimitsNotReread[];
}

export interface LimitsNotReread {
  product: ProductId;
  /** Why Data Limits was not read again. */
  message: string;
  /** Epoch ms of the reading shown instead. */
  readAt: number;
}

export interface RefreshPlanItem {
  key: string;
  code: string;
  product: ProductId;
  dataset: string;
  /** What the sync planner decided for this key. */
  action: "none" | "values" | "history" | "history+values";
  reason: string;
}

export interface RefreshPlan {
  items: RefreshPlanItem[];
  /**
   * Data requests per dataset this refresh would spend, with what remains (null if unknown).
   * Where a dataset's changed series need more than remains, requests is what remains (the
   * allowance gate sends no more) and needed is what they need; through a team gateway
   * (throughGateway) requests is what they need, and needed is absent.
   */
  cost: Array<{
    product: ProductId;
    dataset: string;
    requests: number;
    remaining: number | null;
    needed?: number;
  }>;
  totalRequests: number;
  /** Datasets whose remaining allowance is smaller than the cost. */
  overBudget: string[];
  /**
   * Signed in through a team gateway: the cost is what the refresh asks it for, not capped at
   * what is left; it charges the team only for the series it does not keep already.
   */
  throughGateway?: true;
  /**
   * Epoch ms of the oldest catalog (Series Info) the plan rests on: the preview is "as of"
   * then. null when a product's catalog was never read. Absent: not known (older hosts).
   */
  catalogAsOf?: number | null;
  /** A release came out after that catalog was read (it could not be re-read): the cost may be higher. */
  releaseSinceCatalog?: boolean;
  /**
   * The downtime (a maintenance, release day before the data is out) in which no refresh can
   * run now: the preview is then only what the cached catalog says. Absent when one can run.
   */
  closed?: { reason: "maintenance" | "release"; until: number };
}

export interface RefreshProgress {
  done: number;
  total: number;
  phase: "catalog" | "data" | "done";
}

export interface RefreshSummary {
  updated: number;
  revised: number;
  unchanged: number;
  failed: number;
  /**
   * Data requests the service charged (codes of calls it answered with 2xx); through a team
   * gateway (throughGateway), the codes it answered, of which it bought only those it did not keep.
   */
  requestsUsed: number;
  /** Signed in through a team gateway: requestsUsed counts its answers, not the team's charge. */
  throughGateway?: true;
  /**
   * Data requests of calls that got no answer: the service may or may not have charged
   * them (the usage bars settle it with the next Data Limits read). Absent: none.
   */
  requestsUnconfirmed?: number;
  /** Failures with their cause, for the summary's details. */
  failures: Array<{ key: string; code: string; message: string }>;
  /**
   * What the release changed in the workbook's series (new months, revised history), one
   * entry per key that changed, in the workbook's key order (src/core/release-changes.ts).
   * Absent where a summary is built without a sync (test doubles, older hosts): no changes known.
   */
  changes?: SeriesReleaseChanges[];
  startedAt: number;
  finishedAt: number;
}

/** What the engine's last calls observed (the calendar aside). */
export interface ServiceReachability {
  /** Epoch ms of the first call in a row that got no answer (or a 5xx); null while calls are answered. */
  unreachableSince: number | null;
  /** The last failure's cause, for people (redacted like every error message). */
  reason: string | null;
  /** Epoch ms until which the service said (503) it is in maintenance; null otherwise. */
  maintenanceUntil: number | null;
  /** Epoch ms of the last answer this session, null before the first. */
  lastAnswerAt: number | null;
  /**
   * While unreachableSince is set because the service answers with server errors: the last
   * one's HTTP status (the service is failing, not out of reach). Null or absent when the
   * calls got no answer at all.
   */
  failingStatus?: number | null;
  /**
   * With failingStatus: the last one was the service's downtime by the calendar (a 503 in a
   * window that said nothing more), not a failure of its own; a team gateway's own failure,
   * or its front end's, never is (http-failure.ts).
   */
  failingInWindow?: boolean;
}

export interface ServiceState {
  /** False in a maintenance or release window, from the calendar or as the service said (503). */
  available: boolean;
  reason: "maintenance" | "release" | null;
  /** Epoch ms when the service is expected back (when unavailable). */
  until: number | null;
  /** Epoch ms of the next release day start and next maintenance window start. */
  nextRelease: number;
  nextMaintenance: number;
  /**
   * What the engine's own calls observed: "can't reach the service since…". Absent where
   * nothing observes calls (the calendar alone).
   */
  reachability?: ServiceReachability;
  /**
   * Signed in through a team gateway: in a downtime window calls still go to it, and it serves
   * what it keeps. Absent: the service itself (or not known).
   */
  throughGateway?: boolean;
  /**
   * The calls go to a team gateway, live data or sandbox (whose calls it relays, keeping none):
   * what cannot be reached or fails is the gateway. Absent: the service itself (or not known).
   */
  callsToGateway?: boolean;
}

export interface CacheInfo {
  entries: number;
  /** Approximate size of the cached data (JSON characters). */
  bytes: number;
  persistent: boolean;
  /** Why the cache runs from memory, when it does. */
  fallbackReason: string | null;
  lastRefresh: number | null;
}

export interface EngineStats {
  /** HTTP calls sent per operation (retries included). */
  http: Record<Operation, number>;
  /** Data requests (codes) sent in Series Values and History calls. */
  dataRequests: number;
}

export type Unsubscribe = () => void;

export interface Engine {
  /** Loads settings, catalog and cache from storage. Safe to call more than once. */
  ready(): Promise<void>;

  getSettings(): EngineSettings;
  /** Validates (PcdError "input" naming the field) and persists; never stores a password. */
  updateSettings(patch: Partial<EngineSettings>): Promise<EngineSettings>;

  /** Obtains a token (throws PcdError "auth" / "network" / "unavailable"). */
  signIn(username: string, password: string): Promise<AuthStatus>;
  /** Signs in through the organisation's account: the source gives and renews the token. */
  signIn(source: ExternalTokenSource): Promise<AuthStatus>;
  signOut(options?: { clearCache?: boolean }): Promise<void>;
  authStatus(): AuthStatus;
  onAuthChange(listener: (status: AuthStatus) => void): Unsubscribe;

  /**
   * Series Info of a code; refreshes the catalog (at most hourly) for an unknown code.
   * Waits for the engine's stored state (ready) itself.
   */
  lookup(code: string): Promise<SeriesInfo>;
  /** The cached catalog (fetching what is missing). */
  catalog(product?: ProductId): Promise<SeriesInfo[]>;
  search(text: string, options?: SearchOptions): Promise<SearchHit[]>;

  /**
   * Validates a cell's request against the series: currency/unit by short name (any
   * case) or ID, must be in the series' available lists (PcdError "input" listing the
   * allowed ones); currency/unit on a non-utility industry series is an input error.
   * Waits for the engine's stored state (ready) itself, as getSeries does.
   */
  resolve(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
  ): Promise<SeriesRequest>;
  /**
   * Data for a request: cache, coalescing, batching, sync. `need` says which months the
   * cell reads (default: the whole series), so only the parts holding them are bought.
   * Served only when the cache covers those months: fresh, or complete as of an earlier
   * release when a fetch fails (staleBecause says why). Otherwise it throws the cause,
   * naming what could not be fetched; a History part never passes for the latest months.
   */
  getSeries(request: SeriesRequest, need?: SeriesNeed): Promise<SeriesData>;
  /**
   * The cell fast path: resolve and getSeries in one synchronous step, for a series that
   * needs no call and no wait (engine loaded, catalog record current, the months cached and
   * current). Anything else, errors included, is undefined: the cell then takes the
   * asynchronous path, which answers it (and words every error). Optional for engines
   * that have no such path.
   */
  /**
   * A code's catalog record at once, when lookup would answer it without a call or a wait
   * (engine loaded, record current); else undefined (lookup then answers, and words any
   * error). Optional, like serveNow.
   */
  lookupNow?(code: string): SeriesInfo | undefined;
  serveNow?(
    code: string,
    currency: string | number | null,
    unit: string | number | null,
    need: SeriesNeed,
  ): SeriesData | undefined;
  /** Cached data without any call. */
  peek(key: string): SeriesData | undefined;
  /**
   * A cell holds a request key while it lives (release when its formula is deleted or
   * changes). Refresh-all and its cost preview cover the keys cells hold, so a deleted
   * formula stops costing allowance.
   */
  retainKey(key: string, need?: SeriesNeed): Unsubscribe;
  /** Fires with the keys whose data changed (new months, revisions, currency data). */
  onChange(listener: (keys: ReadonlySet<string>) => void): Unsubscribe;
  /**
   * Fires when one key's data changed: what a cell subscribes to for each key it shows, so
   * a change costs in proportion to the cells that show it. A listener subscribed to
   * several keys that change together is called once.
   */
  onKeyChange(key: string, listener: () => void): Unsubscribe;
  /** Fires when the catalog or limits change (LIMITS cells, the pane). */
  onMetaChange(listener: () => void): Unsubscribe;
  /**
   * Fires when the catalog, the environment or the session changes, but not when only the
   * allowances moved (which happens on every data call): INFO and SEARCH cells.
   */
  onCatalogChange(listener: () => void): Unsubscribe;

  /**
   * Data Limits for every product, fetched (briefly cached) and decremented locally, with
   * the products that could not be read. Throws the first failure when no row could be read.
   */
  /** `reread`: read every product's Data Limits again now (the user's Reload), however recent. */
  limitsReport(options?: { reread?: boolean }): Promise<LimitsReport>;
  /** The rows of limitsReport() alone: use limitsReport() wherever the table is shown whole. */
  limits(): Promise<LimitsRow[]>;
  limitsOf(product: ProductId): Promise<DataLimits>;

  /** What refresh-all would fetch, and what it costs against what remains. */
  /**
   * `recheck`: the user asked for this preview (opened it, or asked to check again): every
   * catalog is read again now, as refresh-all will, so the cost shown is what it will charge
   * (not in a maintenance; on release day this is the probe that learns whether the data is out).
   */
  planRefresh(options?: { recheck?: boolean }): Promise<RefreshPlan>;
  /**
   * `options.keys`: refresh only these request keys (ids); `options.maxShareOfRemaining`: a
   * refresh nobody reviewed refuses to spend more than this share of a dataset's remaining
   * data requests.
   */
  refreshAll(
    onProgress?: (progress: RefreshProgress) => void,
    options?: { keys?: readonly string[]; maxShareOfRemaining?: number },
  ): Promise<RefreshSummary>;
  /** True when a monthly release has started since the last refresh-all (the pane offers one). */
  refreshDue(): boolean;

  serviceState(): ServiceState;
  /**
   * Epoch ms on the clock the host gave the engine (EngineEnvironment.clock): what cells time
   * their retries by, so they agree with the engine on downtimes and releases.
   */
  now(): number;
  /**
   * Fires once when the service answers again after an outage, an unreachable spell or a
   * downtime the engine saw end (the release seen out on release day): cells waiting on a
   * retry try at once. Optional for engines that observe no calls.
   */
  onServiceBack?(listener: () => void): Unsubscribe;
  cacheInfo(): Promise<CacheInfo>;
  clearCache(): Promise<void>;
  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void>;
  stats(): EngineStats;
}
