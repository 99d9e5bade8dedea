// Refresh-all: the monthly routine of a PCD user. It refreshes the catalogs first
// (Series Info costs no data request and says what changed), plans every key of the
// workbook, shows the cost against the remaining allowances, then fetches only what
// changed, through the same batcher and quota gate as the cells.
import type { Catalog } from "./catalog";
import type {
  RefreshPlan,
  RefreshPlanItem,
  RefreshProgress,
  RefreshSummary,
  SeriesRequest,
} from "./engine-api";
import type { KeyValueStorage, Logger } from "./environment";
import type { ProductId, SeriesInfo, ServiceEnvironment } from "./model";
import { parseRequestKey } from "./request-key";
import type { SeriesSync } from "./series-sync";
import { requestsFor } from "./sync-planner";
import type { WorkbookKeys } from "./workbook-keys";

export const LAST_REFRESH_STORAGE_KEY = "pcd:last-refresh";

export interface RefresherOptions {
  catalog: Catalog;
  sync: SeriesSync;
  workbookKeys: WorkbookKeys;
  storage: KeyValueStorage;
  now: () => number;
  environment: () => ServiceEnvironment;
  /** Brings the allowance ledger up to date for these products (errors are tolerated). */
  ensureLimits: (products: readonly ProductId[]) => Promise<void>;
  remaining: (product: ProductId, dataset: string) => number | null;
  /** Data requests sent so far (the batcher's counter). */
  codesSent: () => number;
  /** Throws when no refresh can run (not signed in, service down). */
  preflight: () => Promise<void>;
  log?: Logger;
}

interface PlannedKey {
  item: RefreshPlanItem;
  request: SeriesRequest | null;
  info: SeriesInfo | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class Refresher {
  private last: number | null = null;

  constructor(private readonly options: RefresherOptions) {}

  async load(): Promise<void> {
    const stored = await this.options.storage.get<unknown>(LAST_REFRESH_STORAGE_KEY);
    if (typeof stored === "number") this.last = stored;
  }

  lastRefresh(): number | null {
    return this.last;
  }

  async plan(): Promise<RefreshPlan> {
    return this.summarise(await this.planKeys());
  }

  async run(onProgress?: (progress: RefreshProgress) => void): Promise<RefreshSummary> {
    const startedAt = this.options.now();
    await this.options.preflight();
    onProgress?.({ done: 0, total: 0, phase: "catalog" });
    const planned = await this.planKeys();
    const work = planned.filter((entry) => entry.item.action !== "none" || entry.request === null);
    const summary: RefreshSummary = {
      updated: 0,
      revised: 0,
      unchanged: planned.length - work.length,
      failed: 0,
      requestsUsed: 0,
      failures: [],
      startedAt,
      finishedAt: startedAt,
    };
    const sentBefore = this.options.codesSent();
    let done = 0;
    onProgress?.({ done, total: work.length, phase: "data" });
    await Promise.all(
      work.map(async ({ item, request, info }) => {
        try {
          if (!request || !info) throw new Error(item.reason);
          const outcome = await this.options.sync.sync(request, info);
          if (outcome.usedHistory && outcome.decision.cause === "revision") summary.revised += 1;
          else if (outcome.changed) summary.updated += 1;
          else summary.unchanged += 1;
        } catch (error) {
          summary.failed += 1;
          summary.failures.push({ key: item.key, code: item.code, message: message(error) });
        } finally {
          done += 1;
          onProgress?.({ done, total: work.length, phase: "data" });
        }
      }),
    );
    summary.requestsUsed = this.options.codesSent() - sentBefore;
    summary.finishedAt = this.options.now();
    // A refresh where every call failed did not bring the workbook up to date.
    if (work.length === 0 || summary.failed < work.length) {
      this.last = summary.finishedAt;
      try {
        await this.options.storage.set(LAST_REFRESH_STORAGE_KEY, this.last);
      } catch (error) {
        this.options.log?.("warn", `Could not save the refresh time: ${message(error)}`);
      }
    }
    onProgress?.({ done: work.length, total: work.length, phase: "done" });
    return summary;
  }

  private async planKeys(): Promise<PlannedKey[]> {
    const environment = this.options.environment();
    const keys = this.options.workbookKeys
      .list()
      .map((key) => ({ key, parts: parseRequestKey(key) }))
      .filter(({ parts }) => parts.environment === environment);
    const products = [...new Set(keys.map(({ parts }) => parts.product))];
    const failures = await this.options.catalog.refresh(products);
    for (const [product, error] of failures) {
      this.options.log?.(
        "warn",
        `Series Info of ${product} could not be refreshed (${error.message}); planning with the cached catalog`,
      );
    }
    await this.options.ensureLimits(products);

    return keys.map(({ key, parts }) => {
      const info = this.options.catalog.find(parts.code);
      if (!info) {
        return {
          item: {
            key,
            code: parts.code,
            product: parts.product,
            dataset: "",
            action: "none",
            reason: `${parts.code} is no longer in your subscription's catalog`,
          },
          request: null,
          info: null,
        };
      }
      const request: SeriesRequest = { key, info, currencyId: parts.currencyId, unitId: parts.unitId };
      const decision = this.options.sync.plan(request, info);
      return {
        item: {
          key,
          code: parts.code,
          product: info.product,
          dataset: info.coverage,
          action: decision.action,
          reason: decision.reason,
        },
        request,
        info,
      };
    });
  }

  private summarise(planned: readonly PlannedKey[]): RefreshPlan {
    const costs = new Map<
      string,
      { product: ProductId; dataset: string; requests: number; remaining: number | null }
    >();
    for (const { item } of planned) {
      const requests = requestsFor(item.action);
      if (requests === 0) continue;
      const id = `${item.product}|${item.dataset}`;
      const cost = costs.get(id) ?? {
        product: item.product,
        dataset: item.dataset,
        requests: 0,
        remaining: this.options.remaining(item.product, item.dataset),
      };
      cost.requests += requests;
      costs.set(id, cost);
    }
    const cost = [...costs.values()];
    return {
      items: planned.map(({ item }) => item),
      cost,
      totalRequests: cost.reduce((sum, row) => sum + row.requests, 0),
      overBudget: cost
        .filter((row) => row.remaining !== null && row.requests > row.remaining)
        .map((row) => row.dataset),
    };
  }
}
