// How a cell's series is answered: from the cache when it holds the months the cell reads
// (at once, synchronously where possible: serveNow), else after bringing the missing parts
// up to date (series-sync.ts), or, when that cannot be done, from an earlier complete
// release with the cause attached (staleBecause), or with an error that says what is
// missing and why. Every cell that shows one cache entry gets the same SeriesData object.
import type { CacheEntry, DataCache } from "./cache";
import type { Catalog } from "./catalog";
import { coveredStart } from "./coverage";
import type { SeriesData, SeriesRequest } from "./engine-api";
import { PcdError, toPcdError } from "./errors";
import type { ServiceEnvironment, SeriesInfo } from "./model";
import { monthOfIndex } from "./months";
import { findRequestKey, type RequestKey } from "./request-key";
import { resolveSeriesRequest } from "./resolve-request";
import { windowStart, type SeriesNeed } from "./series-need";
import type { SeriesSync } from "./series-sync";
import { judgeServing, missingError } from "./serving";
import { planSync } from "./sync-planner";

export interface SeriesServerParts {
  cache: DataCache;
  catalog: Pick<Catalog, "find" | "isCurrent" | "olderThanRelease">;
  sync: Pick<SeriesSync, "plan" | "bring" | "context">;
  now(): number;
  environment(): ServiceEnvironment;
  /** True once the engine has read its stored state (the synchronous path needs it). */
  loaded(): boolean;
  /** Records that the workbook reads these months of the key (refresh-all plans from it). */
  noteNeed(key: RequestKey, need: SeriesNeed): void;
  /** A product a cell reads: its Data Limits may be read ahead. */
  noteProduct(product: SeriesInfo["product"]): void;
  /** The known downtime window now, as a cell's error (a cell shows it beside a stale copy). */
  downtimeError(code: string, hasCache: boolean): PcdError | undefined;
  /** Why no call may be made now (a known downtime window, unless a gateway answers), or undefined. */
  callBlocked(code: string, hasCache: boolean): PcdError | undefined;
  /** A failed call's error as the cell tells it. */
  explainFailure(code: string, hasCache: boolean, error: PcdError): PcdError;
  /** The not_signed_in error, or undefined when a token can be had. */
  signInError(): Promise<PcdError | undefined>;
}

/** Data versions are unique in the process (across engines), so a version names one series state. */
let nextDataVersion = 0;

export class SeriesServer {
  private readonly entryVersions = new WeakMap<CacheEntry, number>();
  private readonly dataOfEntry = new WeakMap<CacheEntry, SeriesData>();

  constructor(private readonly parts: SeriesServerParts) {}

  get(request: SeriesRequest, need: SeriesNeed): Promise<SeriesData> {
    const { parts } = this;
    try {
      parts.noteNeed(request.requestKey, need);
      // Only a series not read since start-up waits for storage (no extra turn for the rest).
      if (parts.cache.isUnread(request.key))
        return parts.cache.ensure(request.key).then(() => this.getRead(request, need));
      return this.getRead(request, need);
    } catch (error) {
      // Callers chain .then/.catch on the result: a rejection, never a synchronous throw.
      return Promise.reject(error as Error);
    }
  }

  /**
   * get, once the key's stored entry is in memory. Promises are chained, not awaited: a cold
   * workbook's cells all wait here for their data at once, for seconds, and a suspended
   * function per cell and step would be memory held for all that time (the data wait itself is
   * one per key and plan: SeriesSync.bring).
   */
  private getRead(request: SeriesRequest, need: SeriesNeed): Promise<SeriesData> {
    const { parts } = this;
    const { requestKey } = request;
    const { environment } = requestKey;
    const info = parts.catalog.find(request.info.code) ?? request.info;
    const cached = parts.cache.get(request.key);
    if (cached && parts.sync.plan(request, need, info).action === "none") {
      // A catalog still older than the release (its read failed or was held back) makes the
      // cache look current: the data is shown as stale, so the cell says so and tries again.
      const outdated = parts.catalog.olderThanRelease(info.product);
      if (outdated) {
        const cause = parts.downtimeError(info.code, true) ?? outdated;
        return new Promise((resolve) => resolve(this.toData(cached, info, cause)));
      }
      return new Promise((resolve) => resolve(this.serve(requestKey, info, need)));
    }

    let blocked: PcdError | undefined;
    if (environment !== parts.environment()) {
      blocked = new PcdError(
        "not_signed_in",
        `${info.code} asks for ${environment} data but PCD is set to ${parts.environment()}: switch the environment in the task pane.`,
      );
    }
    blocked ??= parts.callBlocked(info.code, cached !== undefined);
    if (blocked) {
      const cause = blocked;
      return new Promise((resolve) => resolve(this.serve(requestKey, info, need, cause)));
    }
    return parts.signInError().then((signIn) => {
      if (signIn) return this.serve(requestKey, info, need, signIn);
      return parts.sync.bring(request, need, info).then(
        () => this.serve(requestKey, info, need),
        (error: unknown) =>
          this.serve(
            requestKey,
            info,
            need,
            parts.explainFailure(info.code, cached !== undefined, toPcdError(error)),
          ),
      );
    });
  }

  /** The record of a code when it is at hand and current (else undefined: the slow path). */
  lookupNow(code: string): SeriesInfo | undefined {
    if (!this.parts.loaded()) return undefined;
    const info = this.parts.catalog.find(code.trim());
    // A record of a catalog lookup would read again (a day old, or older than the latest
    // release): the slow path does that.
    if (!info || !this.parts.catalog.isCurrent(info.product)) return undefined;
    return info;
  }

  /** A cached, current series at once; undefined for anything else (the slow path words it). */
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
      request = resolveSeriesRequest(this.parts.environment(), info, currency, unit);
    } catch {
      return undefined;
    }
    const entry = this.parts.cache.get(request.key);
    if (!entry) return undefined;
    // What sync.plan and serve decide, with the context read once (this runs per cell).
    const context = this.parts.sync.context(this.parts.environment(), info.product);
    if (planSync(entry, info, need, context).action !== "none") return undefined;
    if (judgeServing(entry, info, need, context).kind !== "fresh") return undefined;
    this.parts.noteProduct(info.product);
    this.parts.noteNeed(request.requestKey, need);
    return this.toData(entry, info);
  }

  /** What the cache holds for a key, whatever its age (no call). */
  peek(key: string): SeriesData | undefined {
    const entry = this.parts.cache.get(key);
    if (!entry) return undefined;
    const code = findRequestKey(key)?.code;
    const info = code === undefined ? undefined : this.parts.catalog.find(code);
    return info ? this.toData(entry, info) : undefined;
  }

  /**
   * Answers a cell from the cache when it holds the months the cell reads: fresh, or as a
   * complete earlier release had them when `failure` kept it from being brought up to date.
   * Otherwise throws the failure, saying what it kept from the cell.
   */
  private serve(key: RequestKey, info: SeriesInfo, need: SeriesNeed, failure?: PcdError): SeriesData {
    const entry = this.parts.cache.get(key.id);
    const context = this.parts.sync.context(key.environment, info.product);
    const serving = judgeServing(entry, info, need, context);
    if (entry && serving.kind === "fresh") return this.toData(entry, info);
    if (entry && serving.kind === "stale" && failure) return this.toData(entry, info, failure);
    if (failure?.kind === "plan" && !context.historyAvailable && serving.kind === "missing") {
      // The History call this cell waited on was just refused by the plan: the cell says so
      // in the words every later cell gets (below), not in the raw HTTP 403's.
      throw noHistoryError(info, entry ? serving.what : monthsBeforeWindow(info));
    }
    if (!failure) {
      if (serving.kind === "missing" && entry) {
        // Nothing failed, yet the months are not to be had: on a plan without History that
        // is the plan; otherwise the service's answers did not hold them.
        if (!context.historyAvailable) throw noHistoryError(info, serving.what);
        throw new PcdError(
          "not_found",
          `The service's answers for ${info.code} did not include ${serving.what}.`,
        );
      }
      if (!entry) throw new PcdError("not_found", `The service returned no data for ${info.code}.`);
      return this.toData(entry, info);
    }
    if (!entry) throw failure;
    throw missingError(failure, info.code, serving.kind === "missing" ? serving.what : "the data");
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
      fromSeriesStart: coveredStart(entry.covered) === -Infinity,
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
}

/** The months a plan without History cannot give, said the same way in every cell. */
function noHistoryError(info: SeriesInfo, what: string): PcdError {
  return new PcdError(
    "plan",
    `Your plan has no Series Values History for ${info.product}: ${what} of ${info.code} are not available.`,
  );
}

/** "the months before 2025-10": what History holds for a series (the window's first month). */
function monthsBeforeWindow(info: SeriesInfo): string {
  if (info.lastAvailableFinal === null) return "the months before the window";
  return `the months before ${monthOfIndex(windowStart(info.lastAvailableFinal))}`;
}
