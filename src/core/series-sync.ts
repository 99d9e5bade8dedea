// Brings one request key up to date: plans (sync-planner), fetches through the batcher,
// merges (merge) and stores a complete entry (cache). Shared by getSeries and
// refreshAll so both spend allowances by the same rules.
import type { Batcher, BatchItem } from "./batcher";
import type { CacheEntry, DataCache } from "./cache";
import type { ChangeEvents } from "./change-events";
import type { SeriesRequest } from "./engine-api";
import type { Logger } from "./environment";
import { isPcdError } from "./errors";
import { lastMonthOf, mergeAnswer, pointsDiffer, type SeriesPoints } from "./merge";
import type { ProductId, SeriesInfo, SeriesValues, ServiceEnvironment } from "./model";
import { parseRequestKey } from "./request-key";
import { planSync, reaches, type SyncContext, type SyncDecision } from "./sync-planner";

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

export class SeriesSync {
  private readonly running = new Map<string, Promise<SyncOutcome>>();
  private readonly noHistory = new Set<string>();
  private readonly historyEndsEarly = new Set<string>();

  constructor(private readonly options: SeriesSyncOptions) {}

  context(environment: ServiceEnvironment, product: ProductId): SyncContext {
    const scope = `${environment}|${product}`;
    return {
      historyAvailable: !this.noHistory.has(scope),
      historyEndsEarly: this.historyEndsEarly.has(scope),
    };
  }

  plan(request: SeriesRequest, info: SeriesInfo = request.info): SyncDecision {
    const { environment } = parseRequestKey(request.key);
    return planSync(this.options.cache.get(request.key), info, this.context(environment, info.product));
  }

  /** Syncs a key; concurrent syncs of one key share one run. Throws when a call fails. */
  sync(request: SeriesRequest, info: SeriesInfo = request.info): Promise<SyncOutcome> {
    const running = this.running.get(request.key);
    if (running) return running;
    const run = this.run(request, info).finally(() => this.running.delete(request.key));
    this.running.set(request.key, run);
    return run;
  }

  isBusy(): boolean {
    return this.running.size > 0;
  }

  /** Resolves once no sync is running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async run(request: SeriesRequest, info: SeriesInfo): Promise<SyncOutcome> {
    const { environment } = parseRequestKey(request.key);
    const scope = `${environment}|${info.product}`;
    const before = this.options.cache.get(request.key);
    const decision = planSync(before, info, this.context(environment, info.product));
    if (decision.action === "none") return { entry: before, decision, changed: false, usedHistory: false };

    const item: BatchItem = {
      key: request.key,
      environment,
      product: info.product,
      dataType: info.dataType,
      dataset: info.coverage,
      request: { code: info.code, currencyId: request.currencyId, unitId: request.unitId },
    };
    let points: SeriesPoints | undefined = before;
    let latest: SeriesValues | undefined;
    let usedHistory = false;
    let needValues = decision.action === "values";

    if (decision.action === "history" || decision.action === "history+values") {
      try {
        const history = await this.options.batcher.fetch("series_hist", item);
        usedHistory = true;
        latest = history;
        points = mergeAnswer(points, history, "history");
        // Judge the History answer itself: after a revision, cached months beyond it are
        // the unrevised ones and must come again from Series Values.
        if (!reaches(lastMonthOf(history.finals), info.lastAvailableFinal)) {
          needValues = true;
          this.historyEndsEarly.add(scope);
        }
      } catch (error) {
        if (!isPcdError(error) || error.kind !== "plan") throw error;
        if (!this.noHistory.has(scope)) {
          this.noHistory.add(scope);
          this.options.log?.(
            "warn",
            `Your plan has no Series Values History for ${info.product}: PCD keeps accumulating months from Series Values.`,
          );
          this.options.onHistoryUnavailable?.(environment, info.product);
        }
        needValues = true;
      }
    }

    if (needValues) {
      try {
        const values = await this.options.batcher.fetch("series_values", item);
        latest = values;
        points = mergeAnswer(points, values, "values");
      } catch (error) {
        // Keep what History delivered, marked so the next sync asks Values again.
        if (usedHistory && points && latest)
          await this.store(request.key, before, points, latest, info, true);
        throw error;
      }
    }
    if (!points || !latest) return { entry: before, decision, changed: false, usedHistory };
    const { entry, changed } = await this.store(request.key, before, points, latest, info, false);
    return { entry, decision, changed, usedHistory };
  }

  private async store(
    key: string,
    before: CacheEntry | undefined,
    points: SeriesPoints,
    latest: SeriesValues,
    info: SeriesInfo,
    pendingValues: boolean,
  ): Promise<{ entry: CacheEntry; changed: boolean }> {
    const entry: CacheEntry = {
      key,
      finals: points.finals,
      forecasts: points.forecasts,
      currency: latest.currency,
      unit: latest.unit,
      updatedAt: latest.updatedAt,
      lastFinal: lastMonthOf(points.finals),
      fetchedAt: this.options.now(),
      catalogUpdatedAt: info.updatedAt,
      ...(pendingValues ? { pendingValues } : {}),
    };
    const changed = pointsDiffer(before, points);
    await this.options.cache.put(entry);
    if (changed) this.options.changes.changed(key);
    return { entry, changed };
  }
}
