// The catalog: Series Info of every product, per environment, persisted with its fetch
// time. Series Info costs no data request, so the engine leans on it to answer "what
// is this code", "what changed" and "which dataset pays" without touching allowances.
import { earliestReadAt } from "./gateway-read-time";
import * as v from "valibot";
import { CatalogArrivals } from "./catalog-arrivals";
import { isPcdError, PcdError, type PcdErrorKind } from "./errors";
import type { KeyValueStorage, Logger } from "./environment";
import { PRODUCTS, type Month, type ProductId, type SeriesInfo, type ServiceEnvironment } from "./model";
import type { ServiceClient } from "./service-client";
import { truncate } from "./truncate";
import { ENGINE_DEFAULTS } from "./defaults";
import { TextPool } from "./http/text-pool";
import { failureBackoff } from "./failure-backoff";

export const CATALOG_KEY_PREFIX = "pcd:catalog:";
/** A catalog is fresh for a day (the data changes monthly; new series appear rarely). */
export const CATALOG_MAX_AGE_MS = ENGINE_DEFAULTS.catalogMaxAgeMs;
/** An unknown code refreshes a product's catalog at most this often. */
export const UNKNOWN_CODE_REFRESH_MS = ENGINE_DEFAULTS.unknownCodeRefreshMs;
/** After a failed fetch, a cached catalog is used for this long before trying again. */
export const CATALOG_RETRY_AFTER_FAILURE_MS = ENGINE_DEFAULTS.catalogRetryAfterFailureMs;
/**
 * Unless the user asked (Refresh all), a product's Series Info calls start at least this far
 * apart, whatever asks: a view or a cell that asks in a loop gets the catalog it has (or the
 * last call's failure), never another call.
 */
export const CATALOG_MIN_CALL_INTERVAL_MS = ENGINE_DEFAULTS.catalogMinCallIntervalMs;
/** The same for a product with no catalog at all: its cells cannot work until one arrives. */
export const CATALOG_MIN_CALL_INTERVAL_UNCACHED_MS = ENGINE_DEFAULTS.catalogMinCallIntervalUncachedMs;

/**
 * Who wants a catalog read: the user (Refresh all, the preview the user opens or checks
 * again: always called; on release day that call is the probe that learns whether the data
 * is out), the cost preview worked out again by itself (bounded, never in a downtime), or
 * anything else in passing (a cell, a search: bounded, never in a downtime).
 */
export type CatalogReader = "user" | "preview" | "passing";

/** A downtime the calendar or the service announced, and the error of a call not made in it. */
export interface AnnouncedDowntime {
  reason: "maintenance" | "release";
  error: PcdError;
}

const CODE_PATTERN = /^\d+-\d+-\d+$/;

/** Failures that mean "could not check", as opposed to "this product is not subscribed". */
const TRANSIENT_KINDS: ReadonlySet<PcdErrorKind> = new Set([
  "not_signed_in",
  "auth",
  "network",
  "timeout",
  "unavailable",
  "server",
  "rate",
  "storage",
]);

const nullableString = v.nullable(v.string());
const SeriesInfoSchema = v.object({
  code: v.string(),
  product: v.picklist(PRODUCTS),
  productName: v.string(),
  dataType: v.picklist(["energy", "commodity", "utilities", "location_factor", "cost_index"]),
  assessment: v.string(),
  commodity: v.string(),
  coverage: v.string(),
  location: v.string(),
  area: nullableString,
  details: nullableString,
  specification: nullableString,
  remark1: nullableString,
  remark2: nullableString,
  lag: v.nullable(v.number()),
  defaultCurrency: nullableString,
  defaultUnit: nullableString,
  availableCurrencies: v.array(v.string()),
  availableUnits: v.array(v.string()),
  hasForecast: v.nullable(v.boolean()),
  hasPreliminary: v.nullable(v.boolean()),
  seriesHistChanged: v.nullable(v.boolean()),
  lastAvailableFinal: nullableString,
  updatedAt: nullableString,
  raw: v.record(v.string(), v.unknown()),
});

const StoredCatalogSchema = v.object({
  fetchedAt: v.number(),
  series: v.array(SeriesInfoSchema),
  awaitingRelease: v.optional(v.number()),
  sourceReadAt: v.optional(v.number()),
});

interface ProductCatalog {
  fetchedAt: number;
  series: SeriesInfo[];
  byCode: Map<string, SeriesInfo>;
  /**
   * Read while the release starting then was awaited (its downtime on, the service not seen
   * answering since): through a team gateway such a read is its copy of the month before.
   */
  awaitingRelease?: number;
  /** When a team gateway read this catalog from the service (its answer says), if before fetchedAt. */
  sourceReadAt?: number;
}

export interface CatalogOptions {
  client: Pick<ServiceClient, "seriesInfo">;
  storage: KeyValueStorage;
  now: () => number;
  environment: () => ServiceEnvironment;
  log?: Logger;
  /** Called when a product's catalog content changed. */
  onChange?: () => void;
  /**
   * Called when a product's catalog, read again, shows a release (its latest month moved
   * on): the allowances reset with it.
   */
  onNewData?: (product: ProductId) => void;
  /** Called after every successful Series Info answer (the service is up). */
  onFetched?: () => void;
  /** Called when a product's Series Info call starts (its data will likely be asked next). */
  onFetching?: (product: ProductId) => void;
  /**
   * The announced downtime now (a maintenance, release day before the data is out), if any:
   * no Series Info call is made in it but the user's.
   */
  announcedDowntime?: (product: ProductId) => AnnouncedDowntime | undefined;
  /** Epoch ms of the latest release's start: calls made before it do not hold back a read after it. */
  latestReleaseStart?: () => number;
  /**
   * Epoch ms of the start of the latest release whose data is out: a catalog read before it
   * says nothing of that release, however young (default: none).
   */
  latestReleaseOut?: () => number;
  /**
   * The start of the release whose downtime is on now, the service not seen answering since
   * (undefined: none). A catalog read then says nothing of that release (a team gateway answers
   * from its copy while the service is closed): it counts as older than the release once the
   * release is out, and as no sign of the service answering after a restart (answeredAt).
   */
  awaitedRelease?: () => number | undefined;
  /**
   * When the answer just received for the product was read from the service, if a team gateway
   * said so (its copy may be older than this read): what the catalog is as of.
   */
  sourceReadAt?: (product: ProductId) => number | undefined;
  /** Whether a catalog read while a release was awaited is read again every few minutes (default: no). */
  rereadAwaited?: () => boolean;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function storageKey(environment: ServiceEnvironment, product: ProductId): string {
  return `${CATALOG_KEY_PREFIX}${environment}:${product}`;
}

function formatTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function isValidCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

/** Longest code echoed in a message, "…" included: Excel shows 255 characters, the cause must stay visible. */
const MAX_SHOWN_CODE = 41;

function shownCode(code: string): string {
  return truncate(code, MAX_SHOWN_CODE);
}

/**
 * The catalogs' map keys ("live|energy_price"), built once: find runs for every cell and
 * every re-run, and a key built per lookup is a new string to flatten and hash each time.
 */
const SCOPE_KEYS: Readonly<Record<ServiceEnvironment, ReadonlyArray<readonly [ProductId, string]>>> = {
  live: PRODUCTS.map((product) => [product, `live|${product}`] as const),
  sandbox: PRODUCTS.map((product) => [product, `sandbox|${product}`] as const),
};

/**
 * The product's latest month moved on: a release came out (the allowances reset with it). A
 * revision (updated_at alone), a new series or a late update (a few series getting the
 * month the others already had, a day after the release) comes between releases and resets
 * nothing: taking it for one would lift quota blocks the service still enforces.
 */
function showsNewRelease(cached: ProductCatalog, series: readonly SeriesInfo[]): boolean {
  const before = latestMonthOf(cached.series);
  const after = latestMonthOf(series);
  return before !== null && after !== null && after > before;
}

function latestMonthOf(series: readonly SeriesInfo[]): Month | null {
  let latest: Month | null = null;
  for (const info of series) {
    if (info.lastAvailableFinal !== null && (latest === null || info.lastAvailableFinal > latest))
      latest = info.lastAvailableFinal;
  }
  return latest;
}

/**
 * When a catalog was read from the service, for judging whether it shows a release: this
 * engine's own read time, or a team gateway's, taken as early as the two clocks may differ
 * (gateway-read-time.ts). Messages show the gateway's time as it said it.
 */
function judgedReadAt(catalog: ProductCatalog): number {
  return catalog.sourceReadAt === undefined ? catalog.fetchedAt : earliestReadAt(catalog.sourceReadAt);
}

/** No clock reading yet: the releases are worked out at the next question. */
const NO_RELEASE_READING = { at: Number.NaN, start: -Infinity, awaited: undefined } as const;

export class Catalog {
  private readonly catalogs = new Map<string, ProductCatalog>();
  private readonly fetching = new Map<string, Promise<ProductCatalog>>();
  /** Per environment|product: when its last Series Info call started (or failed), its failure, and failures in a row. */
  private readonly lastCall = new Map<string, { at: number; error: PcdError | null; failures: number }>();
  private revision = 0;
  /**
   * As of the clock reading `at`: the latest release out (predatesRelease), and the start of the
   * release awaited then, if any (awaitingDue).
   */
  private releaseOut: { at: number; start: number; awaited: number | undefined } = NO_RELEASE_READING;
  /** Cells waiting for codes while catalogs load (catalog-arrivals.ts). */
  private readonly arrivals = new CatalogArrivals<ServiceEnvironment>((code, environment) =>
    this.findIn(environment, code),
  );

  constructor(private readonly options: CatalogOptions) {}

  /** Reads the persisted catalogs of both environments. */
  async load(): Promise<void> {
    await Promise.all(
      (["live", "sandbox"] as const).flatMap((environment) =>
        PRODUCTS.map(async (product) => {
          const key = `${environment}|${product}`;
          if (this.catalogs.has(key)) return;
          const parsed = v.safeParse(
            StoredCatalogSchema,
            await this.options.storage.get(storageKey(environment, product)),
          );
          if (!parsed.success) return;
          const { fetchedAt, awaitingRelease, sourceReadAt } = parsed.output;
          // A catalog read later than now (a cache file from elsewhere, a clock since set
          // back) would count as current until that time came, however old it is, and one a
          // gateway says it read later than now, or after this engine's read (which no read
          // gives), would never predate a release: neither is believed, and the product's
          // Series Info is read again when a cell needs it.
          const now = this.options.now();
          if (
            fetchedAt > now ||
            (sourceReadAt !== undefined && sourceReadAt > fetchedAt) ||
            (awaitingRelease !== undefined && awaitingRelease > now)
          ) {
            this.options.log?.(
              "warn",
              `The saved catalog of ${product} gives read times that cannot be (after now, or a gateway's after this engine's read); it is read again.`,
            );
            return;
          }
          // Equal texts become one string each, as when the catalog was fetched (text-pool.ts).
          const pool = new TextPool();
          const series = parsed.output.series.map((info) => pool.copy(info));
          this.catalogs.set(key, this.index(fetchedAt, series, { awaitingRelease, sourceReadAt }));
        }),
      ),
    );
    this.revision += 1;
  }

  /** Increases whenever any catalog's content changes (the search index rebuilds on it). */
  version(): number {
    return this.revision;
  }

  /** A product's series, fetched when missing or older than maxAgeMs (default 24 h). */
  async list(product: ProductId, maxAgeMs = CATALOG_MAX_AGE_MS): Promise<SeriesInfo[]> {
    return (await this.ensure(product, maxAgeMs)).series;
  }

  /** Every product's series; products that cannot be fetched (and have no cache) are skipped. */
  async all(): Promise<SeriesInfo[]> {
    return (await this.everyCatalog()).flatMap((catalog) => catalog.series);
  }

  /**
   * Every product's catalog there, as all() has them, without listing the series: a search
   * asks for this for every PCD.SEARCH cell it answers, and all() copies thousands of series
   * into one list.
   */
  async ensureEvery(): Promise<void> {
    await this.everyCatalog();
  }

  /** Each product's catalog that can be had, fetched when missing or old; the first failure when none can. */
  private async everyCatalog(): Promise<ProductCatalog[]> {
    const results = await Promise.allSettled(
      PRODUCTS.map((product) => this.ensure(product, CATALOG_MAX_AGE_MS)),
    );
    const failures = results.filter((result) => result.status === "rejected");
    if (failures.length === PRODUCTS.length && failures[0]) throw failures[0].reason;
    return results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  }

  /**
   * Reads the given products again now (refresh-all, the user's: always called); a failure
   * keeps the cached catalog. For the preview the read is bounded (a call withheld is
   * reported with its cause, a catalog read moments ago counts as read).
   */
  async refresh(
    products: readonly ProductId[] = PRODUCTS,
    reader: CatalogReader = "user",
  ): Promise<Map<ProductId, PcdError>> {
    const failures = new Map<ProductId, PcdError>();
    await Promise.all(
      products.map(async (product) => {
        try {
          await this.ensure(product, 0, reader, true);
        } catch (error) {
          failures.set(product, isPcdError(error) ? error : new PcdError("protocol", String(error)));
        }
      }),
    );
    return failures;
  }

  /** The cached record of a code (current environment), without any call. */
  find(code: string): SeriesInfo | undefined {
    return this.findIn(this.options.environment(), code);
  }

  private findIn(environment: ServiceEnvironment, code: string): SeriesInfo | undefined {
    for (const [, key] of SCOPE_KEYS[environment]) {
      const found = this.catalogs.get(key)?.byCode.get(code);
      if (found) return found;
    }
    return undefined;
  }

  /** Every series held for the current environment (no call). */
  loaded(): SeriesInfo[] {
    const environment = this.options.environment();
    return PRODUCTS.flatMap((product) => this.catalogs.get(`${environment}|${product}`)?.series ?? []);
  }

  fetchedAt(product: ProductId): number | null {
    return this.current(product)?.fetchedAt ?? null;
  }

  /**
   * When the service answered with the product's catalog (its read time), unless it was read
   * while a release was awaited: then it shows nothing of the service (null).
   */
  answeredAt(product: ProductId): number | null {
    const catalog = this.current(product);
    if (catalog === undefined || catalog.awaitingRelease !== undefined) return null;
    return judgedReadAt(catalog);
  }

  private current(product: ProductId): ProductCatalog | undefined {
    const scope = SCOPE_KEYS[this.options.environment()].find(([known]) => known === product);
    return scope && this.catalogs.get(scope[1]);
  }

  /**
   * The product's catalog may answer a cell without a call: read less than a day ago, and
   * after the latest release came out (a catalog of the evening before release day would
   * show last month's figures as current).
   */
  isCurrent(product: ProductId): boolean {
    const catalog = this.current(product);
    const now = this.options.now();
    return (
      catalog !== undefined &&
      now - catalog.fetchedAt < CATALOG_MAX_AGE_MS &&
      !this.predatesRelease(catalog, now) &&
      !this.awaitingDue(catalog)
    );
  }

  /**
   * Why the product's catalog is still older than the latest release now out (undefined: it
   * is not). Its read failed or was held back, and its records would make last month's data
   * look current: the data is then served as stale, with this as the cause.
   */
  olderThanRelease(product: ProductId): PcdError | undefined {
    const catalog = this.current(product);
    if (catalog === undefined || !this.predatesRelease(catalog, this.options.now())) return undefined;
    const failed = this.lastCall.get(`${this.options.environment()}|${product}`)?.error;
    const why = failed ? `: ${failed.message.replace(/\.$/, "")}` : "";
    return new PcdError(
      failed?.kind ?? "network",
      `The catalog of ${product} has not been read since the monthly release came out${why}. ` +
        `The data shown is as of ${formatTime(catalog.sourceReadAt ?? catalog.fetchedAt)} and may be last month's; PCD reads the catalog again.`,
      failed?.details ?? {},
    );
  }

  /** True when a catalog read at `fetchedAt` was read before the latest release came out. */
  private predatesRelease(catalog: ProductCatalog, now: number): boolean {
    const { start } = this.releases(now);
    // Read while that release was awaited: a copy of the month before, once the release is out.
    const awaited = catalog.awaitingRelease;
    // As of when it was read from the service: a team gateway's copy may be older than our read.
    return judgedReadAt(catalog) < start || (awaited !== undefined && start >= awaited);
  }

  /** The releases as of the clock reading `now`: asked per cell, so worked out once per reading. */
  private releases(now: number): { start: number; awaited: number | undefined } {
    if (this.releaseOut.at !== now)
      this.releaseOut = {
        at: now,
        start: this.options.latestReleaseOut?.() ?? -Infinity,
        awaited: this.options.awaitedRelease?.(),
      };
    return this.releaseOut;
  }

  /**
   * The record of a code. An unknown code refreshes catalogs older than an hour (a new
   * series may have appeared) and otherwise fails locally: it never costs a data call.
   */
  async lookup(rawCode: string): Promise<SeriesInfo> {
    const code = rawCode.trim();
    if (!isValidCode(code)) {
      throw new PcdError(
        "input",
        `'${rawCode}' is not a PCD code: codes are three groups of digits joined by hyphens, e.g. 68520-8-1.`,
        { argument: "code" },
      );
    }
    const known = this.find(code);
    if (known) {
      const catalog = this.current(known.product);
      if (catalog !== undefined && this.awaitingDue(catalog)) {
        // Read while a release was awaited (a team gateway's copy): read again every few
        // minutes, the cell waiting for it, since the gateway's copy read after the release is
        // what tells the release is out. A read that fails leaves the record as it was.
        return this.ensure(known.product, CATALOG_MIN_CALL_INTERVAL_MS).then(
          (fresh) => fresh.byCode.get(code) ?? known,
          () => known,
        );
      }
      if (catalog === undefined || !this.predatesRelease(catalog, this.options.now())) {
        this.refreshInBackground(known.product);
        return known;
      }
      // The catalog predates the release now out: its record would buy or serve last
      // month's data as current, so the cell waits for the catalog read again (a then, not
      // an await: every cell of the product may wait here, as on the cold path below).
      return this.ensure(known.product, CATALOG_MAX_AGE_MS).then(
        (catalog) => catalog.byCode.get(code) ?? known,
      );
    }

    // As soon as the product holding it has loaded: a cold workbook's first data calls
    // need not wait for the largest catalog of the three.
    const arrival = this.arrivals.wait(code, this.options.environment(), () =>
      PRODUCTS.map((product) => this.ensure(product, CATALOG_MAX_AGE_MS)),
    );
    // A then, not an await: every cell of a cold workbook waits here while the catalogs
    // load, and a suspended function per cell would be memory held for the whole wait.
    return arrival.found.then((found) => found ?? this.lookupAfterLoads(code, arrival.settled));
  }

  /** A code no load brought: a stale catalog is read again, else the cause is said. */
  private async lookupAfterLoads(
    code: string,
    settled: Promise<Array<PromiseSettledResult<unknown>>>,
  ): Promise<SeriesInfo> {
    let results = await settled;

    const stale = PRODUCTS.filter((product) => {
      const fetchedAt = this.fetchedAt(product);
      return fetchedAt !== null && this.options.now() - fetchedAt >= UNKNOWN_CODE_REFRESH_MS;
    });
    if (stale.length > 0) {
      results = await Promise.allSettled(
        PRODUCTS.map((product) => this.ensure(product, UNKNOWN_CODE_REFRESH_MS)),
      );
      const afterRefresh = this.find(code);
      if (afterRefresh) return afterRefresh;
    }

    // A product whose catalog could not be read at all may hold the code: its failure is
    // the answer, not "unknown code" (a passing fault first, since it says "try again").
    const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    const transient = failures.find((reason) => isPcdError(reason) && TRANSIENT_KINDS.has(reason.kind));
    if (transient !== undefined) throw transient;
    if (failures.length > 0) throw failures[0];
    const checked = Math.max(0, ...PRODUCTS.map((product) => this.fetchedAt(product) ?? 0));
    throw new PcdError(
      "not_found",
      `Unknown code '${shownCode(code)}': it is not in your subscription's catalog (checked ${formatTime(checked)})`,
    );
  }

  /**
   * The service answers again: reads held back after failures may go at once (a cold
   * workbook's cells need the catalog as soon as the service is back).
   */
  forgetFailures(): void {
    for (const [key, last] of [...this.lastCall]) if (last.error !== null) this.lastCall.delete(key);
  }

  /** Forgets every catalog (memory and storage). */
  async clear(): Promise<void> {
    this.catalogs.clear();
    this.lastCall.clear();
    const keys = (await this.options.storage.keys()).filter((key) => key.startsWith(CATALOG_KEY_PREFIX));
    await Promise.all(keys.map((key) => this.options.storage.delete(key)));
    this.revision += 1;
    this.options.onChange?.();
  }

  /**
   * A catalog read while a release was awaited (a team gateway's copy), or read before the
   * release awaited now started (the evening before release day, in an engine open since), is
   * due again every few minutes until that release is out: the gateway answers from its copy at
   * no cost to the service, and the first copy it read after the release tells the release is
   * out. Without the second case such a catalog stays current all release day, and its cells
   * keep last month's figures with the pane saying the service is closed, hours after the data
   * came out.
   */
  private awaitingDue(catalog: ProductCatalog): boolean {
    const now = this.options.now();
    if (now - catalog.fetchedAt < CATALOG_MIN_CALL_INTERVAL_MS) return false;
    const awaited = catalog.awaitingRelease !== undefined ? undefined : this.releases(now).awaited;
    return (
      (catalog.awaitingRelease !== undefined || (awaited !== undefined && judgedReadAt(catalog) < awaited)) &&
      this.options.rereadAwaited?.() === true
    );
  }

  /** A day-old catalog still answers at once; the fresh one arrives for the next question. */
  private refreshInBackground(product: ProductId): void {
    const fetchedAt = this.fetchedAt(product);
    if (fetchedAt === null || this.options.now() - fetchedAt < CATALOG_MAX_AGE_MS) return;
    this.ensure(product, CATALOG_MAX_AGE_MS).catch((error: unknown) => {
      this.options.log?.("warn", `Series Info of ${product} could not be refreshed: ${errorText(error)}`);
    });
  }

  /** When a team gateway read the product's catalog held for `environment`, if one did and said so. */
  gatewayReadAt(environment: ServiceEnvironment, product: ProductId): number | undefined {
    return this.catalogs.get(`${environment}|${product}`)?.sourceReadAt;
  }

  /** When the product's catalog is as of: a team gateway's read time, else this engine's. */
  asOf(product: ProductId): number | null {
    const catalog = this.current(product);
    return catalog === undefined ? null : (catalog.sourceReadAt ?? catalog.fetchedAt);
  }

  private async ensure(
    product: ProductId,
    maxAgeMs: number,
    reader: CatalogReader = "passing",
    force = false,
  ): Promise<ProductCatalog> {
    const environment = this.options.environment();
    const key = `${environment}|${product}`;
    const cached = this.catalogs.get(key);
    const now = this.options.now();
    if (cached && now - cached.fetchedAt < maxAgeMs && !this.predatesRelease(cached, now)) return cached;
    let running = this.fetching.get(key);
    if (!running && reader !== "user") {
      const withheld = this.withheld(key, product, cached !== undefined, reader, now);
      if (withheld === "read-recently" && cached) return cached;
      if (withheld instanceof PcdError) {
        if (cached && !force) return cached;
        throw withheld;
      }
    }
    if (!running) {
      running = this.fetch(environment, product, cached).finally(() => this.fetching.delete(key));
      this.fetching.set(key, running);
      this.options.onFetching?.(product);
    }
    if (force || !cached) return running;
    try {
      return await running;
    } catch (error) {
      const cause = errorText(error);
      this.options.log?.(
        "warn",
        `Series Info of ${product} failed (${cause}); using the catalog of ${formatTime(cached.fetchedAt)}`,
      );
      return cached;
    }
  }

  /**
   * Why no Series Info call of the product is made now (the user's calls are never withheld):
   * an announced downtime (the call could only fail, after renewing the token for nothing);
   * or a call started moments ago, since the latest release began ("read-recently" when it
   * brought the catalog, else its failure), or failures in a row (failure-backoff.ts). Null:
   * the call may go.
   */
  private withheld(
    key: string,
    product: ProductId,
    hasCatalog: boolean,
    reader: CatalogReader,
    now: number,
  ): PcdError | "read-recently" | null {
    const downtime = this.options.announcedDowntime?.(product);
    if (downtime) return downtime.error;
    const last = this.lastCall.get(key);
    if (last === undefined || last.at < (this.options.latestReleaseStart?.() ?? -Infinity)) return null;
    let interval = hasCatalog ? CATALOG_MIN_CALL_INTERVAL_MS : CATALOG_MIN_CALL_INTERVAL_UNCACHED_MS;
    // A failing service: the wait doubles with each failure in a row (a cold workbook's first
    // one stays short, its cells cannot work without the catalog).
    if (last.error) {
      const first = hasCatalog ? Math.max(interval, CATALOG_RETRY_AFTER_FAILURE_MS) : interval;
      interval = failureBackoff(first, last.failures);
    }
    if (now - last.at >= interval) return null;
    return last.error ?? (hasCatalog ? "read-recently" : null);
  }

  private async fetch(
    environment: ServiceEnvironment,
    product: ProductId,
    cached: ProductCatalog | undefined,
  ): Promise<ProductCatalog> {
    const key = `${environment}|${product}`;
    const failures = this.lastCall.get(key)?.failures ?? 0;
    const startedAt = this.options.now();
    this.lastCall.set(key, { at: startedAt, error: null, failures });
    let series: SeriesInfo[];
    try {
      series = await this.options.client.seriesInfo(environment, product);
    } catch (error) {
      this.lastCall.set(key, {
        at: this.options.now(),
        error: isPcdError(error) ? error : new PcdError("protocol", String(error)),
        failures: failures + 1,
      });
      throw error;
    }
    if (series.length === 0 && cached && cached.series.length > 0) {
      // A subscription does not lose every series of a product overnight; an answer with no
      // usable record (a broken or hostile service) must not wipe the catalog the cached
      // data depends on, or every cell would turn into "unknown code".
      const error = new PcdError(
        "protocol",
        `Series Info of ${product} answered no usable series; the catalog of ${formatTime(cached.fetchedAt)} is kept.`,
      );
      this.lastCall.set(key, { at: this.options.now(), error, failures: failures + 1 });
      throw error;
    }
    this.lastCall.set(key, { at: startedAt, error: null, failures: 0 });
    this.options.onFetched?.();
    // The answer may have shown the release out (onFetched): the release's start is worked
    // out again at the next question, even at the same clock reading.
    this.releaseOut = NO_RELEASE_READING;
    const readAt = this.options.now();
    const sourceReadAt = this.options.sourceReadAt?.(product);
    const fresh = this.index(readAt, series, {
      sourceReadAt: sourceReadAt !== undefined && sourceReadAt < readAt ? sourceReadAt : undefined,
    });
    this.catalogs.set(key, fresh);
    const changed = !cached || JSON.stringify(cached.series) !== JSON.stringify(series);
    // New data shows the release out (through a team gateway only that does): told before the
    // read is marked, so that this read is not taken for a copy of the month before.
    if (changed && cached && showsNewRelease(cached, series)) {
      try {
        this.options.onNewData?.(product);
      } catch (error) {
        this.options.log?.("warn", `A listener of new ${product} data failed: ${errorText(error)}`);
      }
    }
    const awaited = this.options.awaitedRelease?.();
    if (awaited !== undefined) fresh.awaitingRelease = awaited;
    this.releaseOut = NO_RELEASE_READING;
    try {
      await this.options.storage.set(storageKey(environment, product), {
        fetchedAt: fresh.fetchedAt,
        series,
        ...(awaited !== undefined ? { awaitingRelease: awaited } : {}),
        ...(fresh.sourceReadAt !== undefined ? { sourceReadAt: fresh.sourceReadAt } : {}),
      });
    } catch (error) {
      this.options.log?.("warn", `Could not persist the ${product} catalog: ${errorText(error)}`);
    }
    if (changed) {
      this.revision += 1;
      this.options.onChange?.();
    }
    return fresh;
  }

  private index(
    fetchedAt: number,
    series: SeriesInfo[],
    marks: { awaitingRelease?: number | undefined; sourceReadAt?: number | undefined } = {},
  ): ProductCatalog {
    const catalog: ProductCatalog = {
      fetchedAt,
      series,
      byCode: new Map(series.map((info) => [info.code, info])),
    };
    if (marks.awaitingRelease !== undefined) catalog.awaitingRelease = marks.awaitingRelease;
    if (marks.sourceReadAt !== undefined) catalog.sourceReadAt = marks.sourceReadAt;
    return catalog;
  }
}
