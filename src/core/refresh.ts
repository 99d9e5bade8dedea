// Refresh-all: the monthly routine of a PCD user. It refreshes the catalogs first
// (Series Info costs no data request and says what changed), plans every key of the
// workbook, shows the cost against the remaining allowances, then fetches only what
// changed, through the same batcher and quota gate as the cells. The engine loads this
// module on the first plan or refresh (a chunk of its own in the add-in); the time of the
// last refresh, which Excel needs at start, is kept by src/core/last-refresh.ts.
import type { Catalog, CatalogReader } from "./catalog";
import type {
  RefreshPlan,
  RefreshPlanItem,
  RefreshProgress,
  RefreshSummary,
  SeriesRequest,
} from "./engine-api";
import type { Logger } from "./environment";
import type { LastRefresh } from "./last-refresh";
import type { ProductId, SeriesInfo, ServiceEnvironment } from "./model";
import { releaseChanges, type SeriesReleaseChanges } from "./release-changes";
import type { SeriesSync } from "./series-sync";
import { requestsFor } from "./sync-planner";
import type { WorkbookKeys } from "./workbook-keys";
import { PcdError } from "./errors";
import type { RequestKey } from "./request-key";
import { resolveSeriesRequest } from "./resolve-request";
import { truncate } from "./truncate";
import { ENGINE_DEFAULTS } from "./defaults";

/** The cost preview reads a catalog again once it is this old (Series Info costs no data request). */
export const PREVIEW_CATALOG_MAX_AGE_MS = ENGINE_DEFAULTS.previewCatalogMaxAgeMs;

export interface RefresherOptions {
  catalog: Catalog;
  sync: SeriesSync;
  workbookKeys: WorkbookKeys;
  /** The codes the workbook's cells name (EngineEnvironment.workbookCodes); absent: not checked. */
  workbookCodes?: () => Promise<ReadonlySet<string>>;
  /** The last refresh-all that counted: a run that brings the workbook up to date records itself there. */
  lastRefresh: LastRefresh;
  now: () => number;
  environment: () => ServiceEnvironment;
  /** Epoch ms of the start of the latest monthly release (a catalog read before it may be out of date). */
  latestReleaseStart: () => number;
  /**
   * Epoch ms of the start of the latest release known to be published: on release day,
   * before the service answers again, the one before (the new data is not out yet).
   */
  latestReleaseOut: () => number;
  /** The downtime no refresh can run in now (the calendar's or the service's), or null. */
  closed: () => { reason: "maintenance" | "release"; until: number } | null;
  /** Brings the allowance ledger up to date for these products (errors are tolerated). */
  ensureLimits: (products: readonly ProductId[]) => Promise<void>;
  /** Reads these products' Data Limits again now, however recent (errors are tolerated). */
  rereadLimits: (products: readonly ProductId[]) => Promise<void>;
  remaining: (product: ProductId, dataset: string) => number | null;
  /** Data requests the service charged so far (the batcher's counter of 2xx answers). */
  codesCharged: () => number;
  /** Data requests of calls that got no answer so far (charged or not, unknown). */
  codesUnconfirmed: () => number;
  /** Signed in through a team gateway: a 2xx answer may have cost nothing (it serves what it keeps). */
  throughGateway?: () => boolean;
  /** Throws when no refresh can run (not signed in, service down). */
  preflight: () => Promise<void>;
  log?: Logger;
}

interface PlannedKey {
  item: RefreshPlanItem;
  request: SeriesRequest | null;
  info: SeriesInfo | null;
  /**
   * Set when refresh-all must report this key as failed without spending a data request:
   * its code is not in the catalog, or its product's Series Info could not be refreshed and
   * the cached record says nothing changed (which only means nothing was checked).
   */
  failure: string | null;
}

/** What a refresh-all may do besides its plan. */
export interface RefreshRunOptions {
  /** Refresh only these keys (ids): the runner's formulas, not every key a cache file lists. */
  keys?: readonly string[];
  /**
   * Nobody saw the cost: run only while the plan spends at most this share of each dataset's
   * remaining data requests (the ribbon's and the automatic refresh-all), else refuse, saying
   * what it would cost and where to review it.
   */
  maxShareOfRemaining?: number;
}

interface PlannedRefresh {
  keys: PlannedKey[];
  /** True when the workbook uses products and none of their Series Info could be refreshed. */
  noCatalogRefreshed: boolean;
}

/** Excel shows at most 255 characters of a cause; the summary's details reuse the same text. */
const MAX_CAUSE_LENGTH = 255;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `head + detail + tail`, the detail (an engine error message, already redacted) shortened so
 * the whole stays within Excel's 255 characters: the words around it say what happened and
 * what it means, so they are the part that must stay visible.
 */
function withinCauseLimit(head: string, detail: string, tail: string): string {
  const room = MAX_CAUSE_LENGTH - head.length - tail.length;
  return `${head}${truncate(detail, room)}${tail}`;
}

/** Why a key of a product whose Series Info could not be refreshed was not checked (RELIABILITY.md F-22). */
function uncheckedCause(product: ProductId, error: string): string {
  return withinCauseLimit(
    `Series Info of ${product} could not be refreshed (`,
    error,
    "); its series were not checked for new data",
  );
}

export class Refresher {
  constructor(private readonly options: RefresherOptions) {}

  /**
   * The cost preview. It re-reads a product's catalog (Series Info, no data request) when
   * the cached one is older than a few minutes or a release started since it was read, so
   * it never says "up to date" from a catalog that predates the data; and it says as of
   * when (the oldest catalog it rests on), which matters when a re-read failed. A release
   * off the calendar shows only in the catalog: `recheck` (the user opened the preview, or
   * asked to check again) reads every catalog now, as the refresh will, unless a maintenance
   * is on (nothing is called then).
   */
  async plan(options: { recheck?: boolean } = {}): Promise<RefreshPlan> {
    const recheck = options.recheck === true && this.options.closed()?.reason !== "maintenance";
    const { keys } = recheck
      ? await this.planKeys(() => true, "user")
      : await this.planKeys((product) => this.catalogIsStale(product), "preview");
    const products = [...new Set(keys.map(({ item }) => item.product))];
    const readAt = products.map((product) => this.options.catalog.asOf(product));
    const known = readAt.filter((at): at is number => at !== null);
    const catalogAsOf = known.length === 0 || known.length < readAt.length ? null : Math.min(...known);
    const closed = this.options.closed();
    const summary = this.summarise(keys);
    const throughGateway = this.options.throughGateway?.() === true;
    // What the refresh will charge: no more than is left of a dataset (the allowance gate
    // sends no more; the series beyond keep their cached data), and what they would need.
    // Through a team gateway nothing is held back for those figures (it serves what it keeps
    // at no charge, and refuses itself what it cannot buy): the cost is what it is asked for.
    const cost = throughGateway
      ? summary.cost
      : summary.cost.map((row) =>
          row.remaining !== null && row.requests > row.remaining
            ? { ...row, requests: Math.max(0, row.remaining), needed: row.requests }
            : row,
        );
    return {
      ...summary,
      ...(throughGateway ? { throughGateway: true as const } : {}),
      cost,
      totalRequests: cost.reduce((sum, row) => sum + row.requests, 0),
      catalogAsOf,
      releaseSinceCatalog:
        (catalogAsOf !== null && catalogAsOf < this.options.latestReleaseOut()) ||
        products.some((product) => this.options.catalog.olderThanRelease(product) !== undefined),
      ...(closed === null ? {} : { closed }),
    };
  }

  private catalogIsStale(product: ProductId): boolean {
    const readAt = this.options.catalog.fetchedAt(product);
    return (
      readAt === null ||
      this.options.now() - readAt >= PREVIEW_CATALOG_MAX_AGE_MS ||
      readAt < this.options.latestReleaseStart() ||
      // Read while the release was awaited (a team gateway's copy of the month before).
      this.options.catalog.olderThanRelease(product) !== undefined
    );
  }

  async run(
    onProgress?: (progress: RefreshProgress) => void,
    runOptions: RefreshRunOptions = {},
  ): Promise<RefreshSummary> {
    const startedAt = this.options.now();
    await this.options.preflight();
    // The user asked for this refresh: parts that failed a moment ago are asked again.
    this.options.sync.forgetFailures();
    const only = runOptions.keys === undefined ? undefined : new Set(runOptions.keys);
    // The catalog step checks one Series Info per product the workbook uses: a real count.
    const products = this.workbookProducts(only).length;
    onProgress?.({ done: 0, total: products, phase: "catalog" });
    const { keys: planned, noCatalogRefreshed } = await this.planKeys(() => true, "user", only);
    onProgress?.({ done: products, total: products, phase: "catalog" });
    if (runOptions.maxShareOfRemaining !== undefined)
      this.checkShare(planned, runOptions.maxShareOfRemaining);
    // Keys that fail without a call are work too: they are counted as failed, never as
    // unchanged, and they take part in the "did this refresh do anything" rule below.
    const work = planned.filter((entry) => entry.item.action !== "none" || entry.failure !== null);
    const summary: RefreshSummary = {
      updated: 0,
      revised: 0,
      unchanged: planned.length - work.length,
      failed: 0,
      requestsUsed: 0,
      failures: [],
      changes: [],
      startedAt,
      finishedAt: startedAt,
    };
    const chargedBefore = this.options.codesCharged();
    const unconfirmedBefore = this.options.codesUnconfirmed();
    // Keys that had a call to make, and how many of those failed: "did the refresh do
    // anything" is judged on them, not on the keys that failed without a call.
    const callKeys = work.filter((entry) => entry.failure === null).length;
    let callsFailed = 0;
    let done = 0;
    // Per planned key, what its sync changed (filled as syncs finish, listed in key order).
    const changes = new Map<string, SeriesReleaseChanges>();
    onProgress?.({ done, total: work.length, phase: "data" });
    await Promise.all(
      work.map(async ({ item, request, info, failure }) => {
        try {
          if (failure !== null || !request || !info) throw new Error(failure ?? item.reason);
          // Entries are replaced, never changed in place: this one stays as it was.
          const before = this.options.sync.cached(item.key);
          const outcome = await this.options.sync.sync(
            request,
            this.options.workbookKeys.need(item.key),
            info,
          );
          if (outcome.usedHistory && outcome.decision.cause === "revision") summary.revised += 1;
          else if (outcome.changed) summary.updated += 1;
          else summary.unchanged += 1;
          const changed = outcome.changed ? releaseChanges(item.code, before, outcome.entry) : null;
          if (changed) changes.set(item.key, changed);
        } catch (error) {
          summary.failed += 1;
          if (failure === null) callsFailed += 1;
          summary.failures.push({ key: item.key, code: item.code, message: message(error) });
        } finally {
          done += 1;
          onProgress?.({ done, total: work.length, phase: "data" });
        }
      }),
    );
    // What the service now says is left, not the local count: Usage after a refresh shows
    // the service's own numbers (one Data Limits call per product that had data calls).
    const called = [
      ...new Set(work.filter((entry) => entry.failure === null).map(({ item }) => item.product)),
    ];
    if (called.length > 0) await this.options.rereadLimits(called);
    summary.changes = planned.flatMap(({ item }) => {
      const changed = changes.get(item.key);
      return changed ? [changed] : [];
    });
    // What the service charged, not what was sent: a call without an answer is reported apart.
    summary.requestsUsed = this.options.codesCharged() - chargedBefore;
    if (this.options.throughGateway?.() === true) summary.throughGateway = true;
    const unconfirmed = this.options.codesUnconfirmed() - unconfirmedBefore;
    if (unconfirmed > 0) summary.requestsUnconfirmed = unconfirmed;
    summary.finishedAt = this.options.now();
    // A refresh where every call failed did not bring the workbook up to date, and neither did
    // one where no Series Info could be refreshed: nothing was checked against the release,
    // whatever the cached catalog let it fetch. Not recording it keeps refreshDue() true, so
    // the pane keeps offering the refresh. When some catalog did refresh and some call (or no
    // call was needed) succeeded, it counts: the summary lists every key left behind, with
    // its cause, whether or not the healthy products happened to have new data.
    const didSomething = callKeys === 0 || callsFailed < callKeys;
    if (didSomething && !noCatalogRefreshed) await this.options.lastRefresh.record(summary.finishedAt);
    onProgress?.({ done: work.length, total: work.length, phase: "done" });
    return summary;
  }

  /**
   * Refuses a refresh nobody reviewed when it would spend more than `share` of a dataset's
   * remaining data requests (a shared workbook's saved key list decides what it plans).
   */
  private checkShare(planned: readonly PlannedKey[], share: number): void {
    // A dataset whose allowance could not be read has no share to keep within: refused too.
    const heavy = this.summarise(planned).cost.filter(
      (row) => row.remaining === null || row.requests > Math.floor(row.remaining * share),
    );
    if (heavy.length === 0) return;
    const listed = heavy
      .map((row) =>
        row.remaining === null
          ? `${row.requests} for ${row.dataset} (${row.product}), whose remaining allowance could not be read`
          : `${row.requests} of the ${row.remaining} left for ${row.dataset} (${row.product})`,
      )
      .join("; ");
    // Through a team gateway the series it keeps cost nothing: the refresh asks for that many.
    const spends = this.options.throughGateway?.() === true ? "ask the team's gateway for up to" : "use";
    throw new PcdError(
      "quota",
      truncate(
        `Refresh all did not run: it would ${spends} ${listed}, more than ${Math.round(share * 100)}% of what is left. Open the PCD pane's Usage tab to see what it would fetch, then refresh there.`,
        MAX_CAUSE_LENGTH,
      ),
      { dataset: heavy[0]?.dataset },
    );
  }

  /** The products of the workbook's keys (or of `only`) in the current environment. */
  private workbookProducts(only?: ReadonlySet<string>): ProductId[] {
    const environment = this.options.environment();
    const products = new Set<ProductId>();
    for (const key of this.options.workbookKeys.list()) {
      if (key.environment === environment && (only === undefined || only.has(key.id)))
        products.add(key.product);
    }
    return [...products];
  }

  /**
   * The saved keys the workbook's cells still name: held by a cell this session, or with a
   * code the workbook's cells name. A key only the saved list names (a shared file's list can
   * hold anything) is left out of the plan, and kept in the list in case a cell comes back.
   */
  private async namedByWorkbook(keys: readonly RequestKey[]): Promise<RequestKey[]> {
    const read = this.options.workbookCodes;
    if (read === undefined) return [...keys];
    let codes: ReadonlySet<string> = new Set();
    try {
      codes = await read();
    } catch (error) {
      this.options.log?.(
        "warn",
        `The workbook's formulas could not be read (${message(error)}): refresh-all covers the series its cells showed this session only.`,
      );
    }
    const named = keys.filter((key) => this.options.workbookKeys.wasHeld(key.id) || codes.has(key.code));
    if (named.length < keys.length) {
      this.options.log?.(
        "info",
        `${keys.length - named.length} saved series request(s) name a code no cell of the workbook names: they are not refreshed.`,
      );
    }
    return named;
  }

  /**
   * A saved key as the catalog allows it now: the same key, the key it is another spelling
   * of (its currency or unit is the series default), or null when the series does not offer
   * its currency or unit (a key list from a shared workbook may hold any number there, and
   * the service charges for codes with options it ignores).
   */
  private checkedKey(requestKey: RequestKey, info: SeriesInfo): RequestKey | Error {
    try {
      return resolveSeriesRequest(requestKey.environment, info, requestKey.currencyId, requestKey.unitId)
        .requestKey;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Plans every workbook key; `reread` picks the catalogs to read again first (refresh-all: all). */
  private async planKeys(
    reread: (product: ProductId) => boolean = () => true,
    reader: CatalogReader = "user",
    only?: ReadonlySet<string>,
  ): Promise<PlannedRefresh> {
    const environment = this.options.environment();
    const keys = await this.namedByWorkbook(
      this.options.workbookKeys
        .list()
        .filter((key) => key.environment === environment && (only === undefined || only.has(key.id))),
    );
    const products = [...new Set(keys.map((key) => key.product))];
    // The preview's reads are bounded by the catalog (a pane that re-plans on every change
    // event cannot make it call again); refresh-all's are the user's and always go.
    const failures = await this.options.catalog.refresh(products.filter(reread), reader);
    for (const [product, error] of failures) {
      this.options.log?.(
        "warn",
        `Series Info of ${product} could not be refreshed (${error.message}); its keys are reported as not checked`,
      );
    }
    await this.options.ensureLimits(products);
    // Plans compare with the cached entries: those not read since start-up are read now.
    await this.options.sync.readCached(keys.map((key) => key.id));

    const planning = new Set(keys.map((key) => key.id));
    const planned = keys.flatMap((stored): PlannedKey[] => {
      const catalogError = failures.get(stored.product);
      const unchecked = catalogError ? uncheckedCause(stored.product, catalogError.message) : null;
      const info = this.options.catalog.find(stored.code);
      let requestKey = stored;
      if (info) {
        const checked = this.checkedKey(stored, info);
        if (checked instanceof Error) {
          // A cell of this session asked for it (the catalog accepted it then): its failure is
          // told like any other. Only the saved list named the others: they are forgotten.
          if (this.options.workbookKeys.wasHeld(stored.id)) {
            const reason = withinCauseLimit(
              `${stored.code} no longer offers what a cell asks for (`,
              checked.message,
              "); the cell says so when it calculates",
            );
            return [
              {
                item: {
                  key: stored.id,
                  code: stored.code,
                  product: info.product,
                  dataset: info.coverage,
                  action: "none",
                  reason,
                },
                request: null,
                info: null,
                failure: reason,
              },
            ];
          }
          this.options.log?.(
            "info",
            `A saved request for ${stored.code} names a currency or unit the series does not offer: it is not refreshed, and is forgotten.`,
          );
          this.options.workbookKeys.drop(stored.id);
          return [];
        }
        if (checked.id !== stored.id) {
          // Another spelling of a key (the series default named): one key, with both needs.
          this.options.workbookKeys.add(checked, this.options.workbookKeys.need(stored.id));
          this.options.workbookKeys.drop(stored.id);
          if (planning.has(checked.id)) return [];
          planning.add(checked.id);
        }
        requestKey = checked;
      }
      const { id: key, product, code } = requestKey;
      if (!info) {
        // Without a fresh catalog, a missing code may only mean the catalog was never
        // fetched: say that rather than "no longer in your subscription".
        const reason = unchecked ?? `${code} is no longer in your subscription's catalog`;
        return [
          {
            item: {
              key,
              code,
              product,
              dataset: "",
              action: "none",
              reason,
            },
            request: null,
            info: null,
            failure: reason,
          },
        ];
      }
      const request: SeriesRequest = { key, requestKey, info };
      // Planned by what the workbook's cells read of the key (workbook-keys.ts): a key
      // shown only as a latest value or a recent table costs one Series Values request.
      const decision = this.options.sync.plan(request, this.options.workbookKeys.need(key), info);
      // A failed catalog refresh leaves two cases. The cached record says nothing changed:
      // that is no evidence (the release is exactly what the refresh could not see), so the
      // key is reported as failed with the catalog's cause, at no data request. The cached
      // record already says data is missing (not cached yet, a gap, a History revision
      // already known, Values still owed after a failed call): that need does not depend on
      // the missing refresh, so the key is fetched as planned (what the cached record proves
      // is owed) and counted by its outcome. Whatever the release added on top is not lost:
      // the entry keeps the cached updated_at it synced against, so the next refresh with a
      // fresh catalog plans the rest. The preview's reason says the plan rests on the cached
      // catalog.
      const notChecked = unchecked !== null && decision.action === "none";
      let reason = notChecked ? unchecked : decision.reason;
      if (catalogError && !notChecked) {
        reason = withinCauseLimit(
          `${decision.reason}; planned with the cached catalog: Series Info of ${product} could not be refreshed (`,
          catalogError.message,
          ")",
        );
      }
      return [
        {
          item: {
            key,
            code,
            product: info.product,
            dataset: info.coverage,
            action: decision.action,
            reason,
          },
          request,
          info,
          failure: notChecked ? reason : null,
        },
      ];
    });
    return {
      keys: planned,
      noCatalogRefreshed: products.length > 0 && products.every((product) => failures.has(product)),
    };
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
