// Brings one request key up to what its cells need: plans (sync-planner), fetches the
// parts through the batcher, merges each answer into the entry (merge, coverage) and
// stores it (cache). Shared by getSeries and refreshAll so both spend allowances by the
// same rules.
//
// Each part (Series Values, History) of a key has at most one call in flight, and a cell
// that needs a part another cell is already fetching waits for that call instead of
// buying it again. A part whose call failed in a way that may have been charged (a
// timeout) or that will fail again at once (network, server, rate) is not asked again for
// RECENT_FAILURE_MS (one refused for a downtime, until its end): cells that re-run meanwhile
// get the same error and retry on their schedule (streaming-cell.ts), so one recalculation
// never charges a key twice. A part
// the service charged for without a usable answer waits longer (stillRemembered).
import type { Batcher, BatchItem } from "./batcher";
import type { CacheEntry, DataCache } from "./cache";
import type { ChangeEvents } from "./change-events";
import { addRange, rangeOf, withinCoverage, type CoveredRange } from "./coverage";
import type { SeriesRequest } from "./engine-api";
import type { Logger } from "./environment";
import { isPcdError, PcdError, type PcdErrorKind } from "./errors";
import { mergeAnswer, pointsDiffer, type MergeSource } from "./merge";
import type { ProductId, SeriesInfo, SeriesValues, ServiceEnvironment } from "./model";
import { monthIndex } from "./months";
import { CURRENCIES, findReference, UNITS, type ReferenceEntry } from "./reference";
import { windowStart, type SeriesNeed } from "./series-need";
import type { DataCallOperation } from "./service-client";
import {
  catalogStamp,
  historyRevisedSince,
  historyStillRevised,
  isRevised,
  planSync,
  reaches,
  type SyncContext,
  type SyncDecision,
} from "./sync-planner";
import { ENGINE_DEFAULTS } from "./defaults";

/** How long a failed part is not asked again (cells retry after a minute at the earliest). */
export const RECENT_FAILURE_MS = ENGINE_DEFAULTS.recentFailureMs;
/** How long a part charged without a usable answer is not bought again (series unchanged). */
export const CHARGED_FAILURE_MS = ENGINE_DEFAULTS.chargedFailureMs;

/** Failures remembered per part: the ones a cell retries (the others stay until asked anew). */
const REMEMBERED_KINDS: ReadonlySet<PcdErrorKind> = new Set([
  "network",
  "timeout",
  "server",
  "rate",
  "protocol",
  "unavailable",
]);

export interface SyncOutcome {
  entry: CacheEntry | undefined;
  decision: SyncDecision;
  /** Finals or forecasts differ from what was cached. */
  changed: boolean;
  /** A History call was answered for this key. */
  usedHistory: boolean;
}

export interface SeriesSyncOptions {
  cache: DataCache;
  batcher: Batcher;
  changes: ChangeEvents;
  now: () => number;
  log?: Logger;
  /** Called once per environment + product when the service says the plan has no History. */
  onHistoryUnavailable?: (environment: ServiceEnvironment, product: ProductId) => void;
}

interface PartResult {
  changed: boolean;
  usedHistory: boolean;
}

export class SeriesSync {
  /** In-flight calls per key and part ("<key>#<operation>"). */
  private readonly inFlight = new Map<string, Promise<PartResult>>();
  /** Waits shared by cells per key and planned parts ("<key>|<action>"): see bring. */
  private readonly bringing = new Map<string, Promise<void>>();
  private readonly recentFailures = new Map<string, RememberedFailure>();
  private readonly noHistory = new Set<string>();
  private readonly historyReachesLatest = new Set<string>();
  /**
   * The context of each environment and product, made once and again only when what it
   * says changes: every cell asks for it on every recalculation (serveNow), and a new
   * object and scope text each time would be a tenth of what a warm recalculation allocates.
   */
  private readonly contexts = new Map<ServiceEnvironment, Map<ProductId, SyncContext>>();

  constructor(private readonly options: SeriesSyncOptions) {}

  context(environment: ServiceEnvironment, product: ProductId): SyncContext {
    let byProduct = this.contexts.get(environment);
    if (byProduct === undefined) {
      byProduct = new Map();
      this.contexts.set(environment, byProduct);
    }
    let context = byProduct.get(product);
    if (context === undefined) {
      const scope = `${environment}|${product}`;
      context = Object.freeze({
        historyAvailable: !this.noHistory.has(scope),
        historyReachesLatest: this.historyReachesLatest.has(scope),
      });
      byProduct.set(product, context);
    }
    return context;
  }

  plan(request: SeriesRequest, need: SeriesNeed, info: SeriesInfo = request.info): SyncDecision {
    const { environment } = request.requestKey;
    return planSync(this.options.cache.get(request.key), info, need, this.context(environment, info.product));
  }

  /**
   * Fetches the parts the need lacks; cells of one key share calls in flight. Throws the
   * first failure (after storing every part that did arrive).
   */
  async sync(
    request: SeriesRequest,
    need: SeriesNeed,
    info: SeriesInfo = request.info,
  ): Promise<SyncOutcome> {
    if (this.options.cache.isUnread(request.key)) await this.options.cache.ensure(request.key);
    const decision = this.plan(request, need, info);
    if (decision.action === "none") {
      return { entry: this.options.cache.get(request.key), decision, changed: false, usedHistory: false };
    }
    const { changed, usedHistory } = await this.syncParts(request, info, decision);
    return { entry: this.options.cache.get(request.key), decision, changed, usedHistory };
  }

  /**
   * What a cell waits on: sync without its outcome, and one wait shared by the cells of a
   * key whose needs plan the same parts. A cold workbook's cells all wait at once, for
   * seconds; a suspended sync and its list of settled parts per cell would be memory held for
   * all that time.
   */
  bring(request: SeriesRequest, need: SeriesNeed, info: SeriesInfo = request.info): Promise<void> {
    try {
      if (this.options.cache.isUnread(request.key))
        return this.options.cache.ensure(request.key).then(() => this.bring(request, need, info));
      const decision = this.plan(request, need, info);
      if (decision.action === "none") return Promise.resolve();
      const id = `${request.key}|${decision.action}`;
      const running = this.bringing.get(id);
      // Joined only while every part it waits for is still in flight: a cell that asks once a
      // part has come (or failed) plans that part anew, as it would with calls of its own
      // (a History revised meanwhile is bought again, a failure not remembered is retried).
      if (
        running !== undefined &&
        operationsOf(decision).every((op) => this.inFlight.has(partId(request, op)))
      )
        return running;
      // Removed before the waiters hear of the outcome: a cell that asks again then plans anew.
      const shared: Promise<void> = this.syncParts(request, info, decision)
        .then(() => undefined)
        .finally(() => {
          if (this.bringing.get(id) === shared) this.bringing.delete(id);
        });
      this.bringing.set(id, shared);
      return shared;
    } catch (error) {
      // What sync would have thrown (it is asynchronous): the server serves it as the failure.
      return Promise.reject(error as Error);
    }
  }

  private syncParts(request: SeriesRequest, info: SeriesInfo, decision: SyncDecision): Promise<PartResult> {
    const operations = operationsOf(decision);
    return Promise.allSettled(operations.map((operation) => this.part(request, info, operation))).then(
      (results) => {
        const failure = results.find((result) => result.status === "rejected");
        if (failure) throw failure.reason;
        const done = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
        return {
          changed: done.some((result) => result.changed),
          usedHistory: done.some((result) => result.usedHistory),
        };
      },
    );
  }

  /** Reads the keys' stored entries into memory where they are not yet (cache.ts). */
  readCached(keys: Iterable<string>): Promise<void> {
    return this.options.cache.ensureMany(keys);
  }

  /** The key's cached entry as it is now (refresh-all compares it with the entry after its sync). */
  cached(key: string): CacheEntry | undefined {
    return this.options.cache.get(key);
  }

  isBusy(): boolean {
    return this.inFlight.size > 0;
  }

  /** Resolves once no call is running. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Forgets remembered failures (a new session, a refresh the user asked for). */
  forgetFailures(): void {
    this.recentFailures.clear();
  }

  /** Forgets the failures a downtime caused: the service is back (stillRemembered says why). */
  forgetDowntimeFailures(): void {
    for (const [id, failure] of this.recentFailures) {
      if (failure.error.kind === "unavailable") this.recentFailures.delete(id);
    }
  }

  private part(request: SeriesRequest, info: SeriesInfo, operation: DataCallOperation): Promise<PartResult> {
    const id = partId(request, operation);
    const running = this.inFlight.get(id);
    if (running) return running;
    const remembered = this.recentFailures.get(id);
    if (remembered && stillRemembered(remembered, info, this.options.now()))
      return Promise.reject(remembered.error);
    this.recentFailures.delete(id);
    const run = this.fetchPart(request, info, operation)
      .catch((error: unknown) => {
        if (isPcdError(error) && (error.details.charged === true || REMEMBERED_KINDS.has(error.kind))) {
          this.recentFailures.set(id, { error, at: this.options.now(), catalog: catalogVersion(info) });
        }
        throw error;
      })
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, run);
    return run;
  }

  private async fetchPart(
    request: SeriesRequest,
    info: SeriesInfo,
    operation: DataCallOperation,
  ): Promise<PartResult> {
    const { environment } = request.requestKey;
    const scope = `${environment}|${info.product}`;
    const item: BatchItem = {
      key: request.key,
      environment,
      product: info.product,
      dataType: info.dataType,
      dataset: info.coverage,
      request: {
        code: info.code,
        currencyId: request.requestKey.currencyId,
        unitId: request.requestKey.unitId,
      },
    };
    let answer: SeriesValues;
    try {
      answer = await this.options.batcher.fetch(operation, item);
    } catch (error) {
      if (operation === "series_hist" && isPcdError(error) && error.kind === "plan")
        this.noteNoHistory(scope, environment, info);
      throw error;
    }
    const notAsked = appliedOtherwise(answer, request);
    if (notAsked) throw notAsked;
    const source: MergeSource = operation === "series_hist" ? "history" : "values";
    if (
      source === "history" &&
      info.lastAvailableFinal !== null &&
      reaches(answer.finals.lastMonth(), info.lastAvailableFinal)
    ) {
      // This service's History holds the window too (the service description's letter).
      if (!this.historyReachesLatest.has(scope)) {
        this.historyReachesLatest.add(scope);
        this.contexts.clear();
      }
    }
    const short = source === "values" ? shortOfCatalog(answer, info) : undefined;
    const changed = await this.store(request.key, answer, source, info, short === undefined);
    // Kept for what it holds, but not as the window: the cells say why, and the part waits
    // as a charged failure does before it is bought again (stillRemembered).
    if (short) throw short;
    return { changed, usedHistory: source === "history" };
  }

  private noteNoHistory(scope: string, environment: ServiceEnvironment, info: SeriesInfo): void {
    if (this.noHistory.has(scope)) return;
    this.noHistory.add(scope);
    this.contexts.clear();
    this.options.log?.(
      "warn",
      `Your plan has no Series Values History for ${info.product}: PCD keeps accumulating months from Series Values.`,
    );
    this.options.onHistoryUnavailable?.(environment, info.product);
  }

  /**
   * Merges one answer into the entry as it is now (another part may have been stored
   * meanwhile). A revised History replaces every month it covers; months of the window
   * stay (as of their release) until Series Values brings them again, so a failed call
   * leaves cells with a complete earlier release rather than a gap. After a revision,
   * months before the window that only earlier Series Values answers brought are dropped:
   * nothing vouches for them any more.
   */
  private async store(
    key: string,
    answer: SeriesValues,
    source: MergeSource,
    info: SeriesInfo,
    complete = true,
  ): Promise<boolean> {
    // An answer merges with everything stored for the key, never with a part of it.
    if (this.options.cache.isUnread(key)) await this.options.cache.ensure(key);
    const current = this.options.cache.get(key);
    const kept =
      current && source === "values" && isRevised(current, info)
        ? current.covered.filter((range) => range.from === null)
        : (current?.covered ?? []);
    const points = mergeAnswer(current, answer, source);
    const historyAsOf = source === "history" ? info.updatedAt : (current?.historyAsOf ?? null);
    const answered = complete ? answeredRange(answer, source, info) : monthsHeld(answer);
    const covered: CoveredRange[] = answered ? addRange(kept, answered) : [...kept];
    const finals = withinCoverage(points.finals, covered);
    const windowReached =
      (source === "values" && complete) ||
      (info.lastAvailableFinal !== null && reaches(answer.finals.lastMonth(), info.lastAvailableFinal));
    const entry: CacheEntry = {
      key,
      finals,
      forecasts: points.forecasts,
      currency: answer.currency,
      unit: answer.unit,
      updatedAt: answer.updatedAt,
      lastFinal: finals.lastMonth(),
      fetchedAt: this.options.now(),
      catalogUpdatedAt: info.updatedAt,
      covered,
      valuesAsOf: windowReached ? catalogStamp(info) : (current?.valuesAsOf ?? null),
      historyAsOf,
      historyRevisedAt: pendingRevision(current, historyAsOf, info),
    };
    const changed = pointsDiffer(current, { finals, forecasts: entry.forecasts });
    await this.options.cache.put(entry);
    if (changed) this.options.changes.changed(key);
    return changed;
  }
}

/**
 * The history revision the entry's History has not caught up with (null: none): one the
 * catalog shows now, or one recorded before; History bought since then settles it.
 */
function pendingRevision(
  current: CacheEntry | undefined,
  historyAsOf: string | null,
  info: SeriesInfo,
): string | null {
  const seen = historyRevisedSince({ historyAsOf }, info);
  const recorded = current?.historyRevisedAt ?? null;
  const latest = seen !== null && (recorded === null || seen > recorded) ? seen : recorded;
  return historyStillRevised({ historyAsOf, historyRevisedAt: latest }) ? latest : null;
}

/**
 * The months an answer vouches for. Series Values: its release's 13-month window (the
 * catalog's), or the answer's own months when it reaches further. History: every month
 * from the first to the one before that window, or to the answer's last month when it
 * reaches further (the service description's letter).
 */
function answeredRange(
  answer: SeriesValues,
  source: MergeSource,
  info: SeriesInfo,
): CoveredRange | undefined {
  const last = answer.finals.lastMonth();
  const lastIndex = last === null ? null : monthIndex(last);
  if (info.lastAvailableFinal === null) {
    if (lastIndex === null) return undefined;
    const first = answer.finals.length > 0 ? answer.finals.indexAt(0) : null;
    return rangeOf(source === "history" || first === null ? -Infinity : first, lastIndex);
  }
  const start = windowStart(info.lastAvailableFinal);
  const end = monthIndex(info.lastAvailableFinal);
  if (source === "history") return rangeOf(-Infinity, Math.max(lastIndex ?? start - 1, start - 1));
  const from = answer.finals.length > 0 ? Math.min(start, answer.finals.indexAt(0)) : start;
  return rangeOf(from, Math.max(lastIndex ?? end, end));
}

interface RememberedFailure {
  error: PcdError;
  at: number;
  /** The catalog's record of the series when the call failed (catalogVersion). */
  catalog: string;
}

/** What of a catalog record says the series' data changed. */
function catalogVersion(info: SeriesInfo): string {
  return `${catalogStamp(info)}|${info.lastAvailableFinal ?? ""}`;
}

/**
 * A failure is not asked again for RECENT_FAILURE_MS. One the service charged for (an
 * unusable answer to a successful call) waits CHARGED_FAILURE_MS: a broken answer is likely
 * to come again and each try spends a data request, yet one that came from something in
 * between (a proxy's page) is cured by a later try. The catalog showing the series changed,
 * or the user's refresh (forgetFailures), ends the wait at once.
 */
function stillRemembered(failure: RememberedFailure, info: SeriesInfo, now: number): boolean {
  // Refused in a known downtime (a team gateway that keeps no copy answers so until the window
  // ends): asked again at the window's end, when the cell retries by itself anyway; the
  // service's return (forgetDowntimeFailures) ends the wait sooner.
  const until = failure.error.kind === "unavailable" ? failure.error.details.until : undefined;
  if (until !== undefined && until > failure.at) return now < until;
  if (failure.error.details.charged !== true) return now - failure.at < RECENT_FAILURE_MS;
  return failure.catalog === catalogVersion(info) && now - failure.at < CHARGED_FAILURE_MS;
}

/**
 * A Series Values answer that ends before the catalog's last final month (or holds no final
 * value) is not the window: the service's catalog and its data disagree, as while a
 * release is being published. The failure a cell shows, or undefined for a whole answer.
 */
function shortOfCatalog(answer: SeriesValues, info: SeriesInfo): PcdError | undefined {
  const expected = info.lastAvailableFinal;
  const last = answer.finals.lastMonth();
  if (expected === null || (last !== null && monthIndex(last) >= monthIndex(expected))) return undefined;
  const sent = last === null ? "no final value" : `months up to ${last} only`;
  return new PcdError(
    "protocol",
    `The service sent ${info.code}'s ${sent}, though its catalog lists ${expected} (PCD asks again later, or on Refresh all).`,
    { charged: true },
  );
}

/**
 * The answer names a currency or unit of the reference tables other than the one asked
 * for: its values are not what the cell asked for, and showing them under the cell's
 * currency would be a wrong number. A name the tables do not know is not judged.
 */
function appliedOtherwise(answer: SeriesValues, request: SeriesRequest): PcdError | undefined {
  const { currencyId, unitId } = request.requestKey;
  const wrong = [
    otherThanAsked(CURRENCIES, answer.currency, currencyId),
    otherThanAsked(UNITS, answer.unit, unitId),
  ].filter((pair): pair is { applied: string; asked: string } => pair !== undefined);
  if (wrong.length === 0) return undefined;
  const applied = wrong.map((pair) => pair.applied).join(" and ");
  const asked = wrong.map((pair) => pair.asked).join(" and ");
  return new PcdError(
    "protocol",
    `The service's answer for ${request.info.code} is in ${applied}, not the ${asked} asked for; PCD did not use it (asked again later, or on Refresh all).`,
    { charged: true },
  );
}

function otherThanAsked(
  table: readonly ReferenceEntry[],
  applied: string | null,
  askedId: number | null,
): { applied: string; asked: string } | undefined {
  if (askedId === null || applied === null) return undefined;
  const found = findReference(table, applied);
  if (found === undefined || found.id === askedId) return undefined;
  return { applied: found.shortName, asked: findReference(table, askedId)?.shortName ?? String(askedId) };
}

/** The months an answer itself holds, first to last (for an answer that is not the window). */
function monthsHeld(answer: SeriesValues): CoveredRange | undefined {
  const last = answer.finals.lastMonth();
  if (last === null || answer.finals.length === 0) return undefined;
  return rangeOf(answer.finals.indexAt(0), monthIndex(last));
}

/** The calls a decision plans, History first. */
function operationsOf(decision: SyncDecision): DataCallOperation[] {
  if (decision.action === "history+values") return ["series_hist", "series_values"];
  return decision.action === "history" ? ["series_hist"] : ["series_values"];
}

/** A part's call in flight, by key and operation ("<key>#<operation>"). */
function partId(request: SeriesRequest, operation: DataCallOperation): string {
  return `${request.key}#${operation}`;
}
