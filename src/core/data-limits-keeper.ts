// The allowances side of the engine: reading Data Limits (free of data requests, but
// counted against the daily quota), reading them ahead of a product's first data call,
// the report the Usage tab and PCD.LIMITS show, and the gate the batcher asks before a
// data call goes out (the ledger admits, refunds, confirms or blocks its codes). The
// ledger (quota-ledger.ts) holds the numbers; this module decides when to ask the service.
import type { BatchGate, BatchItem } from "./batcher";
import type { DataCallOperation } from "./service-client";
import type { LimitsReport } from "./engine-api";
import type { Logger } from "./environment";
import { errorMessage, PcdError, toPcdError } from "./errors";
import { type DataLimits, type ProductId, type ServiceEnvironment } from "./model";
import type { QuotaLedger } from "./quota-ledger";
import { ENGINE_DEFAULTS } from "./defaults";
import { failureBackoff } from "./failure-backoff";
import { realScheduler, type Scheduler } from "./scheduler";

/** Data Limits answers are reused this long by limits() (the ledger decrements meanwhile). */
export const LIMITS_MAX_AGE_MS = ENGINE_DEFAULTS.limitsMaxAgeMs;
/**
 * A product whose Data Limits read failed is not read again for this long, whatever asks
 * (the bars, the preview, a cell's data call), unless the user asks (Reload).
 */
export const LIMITS_RETRY_AFTER_FAILURE_MS = ENGINE_DEFAULTS.limitsRetryAfterFailureMs;
/**
 * A reading taken while calls of its product were under way is read again once the product's
 * calls have been over this long (quota-ledger.ts says why such a reading is unsettled).
 */
export const LIMITS_SETTLE_QUIET_MS = ENGINE_DEFAULTS.limitsSettleQuietMs;

export interface DataLimitsParts {
  ledger: QuotaLedger;
  now(): number;
  /** One Data Limits call (the service client's). */
  read(product: ProductId): Promise<DataLimits>;
  environment(): ServiceEnvironment;
  signedIn(): boolean;
  /** A token, renewed if needed: a data call's "not signed in" is found before it waits. */
  token(): Promise<unknown>;
  /** Why a Data Limits call of `product` is not made now (a known downtime window). */
  downtimeError(product: ProductId): PcdError | undefined;
  /** The products the workbook's saved keys name. */
  workbookProducts(): ReadonlySet<ProductId>;
  /** The allowances moved (usage bars and PCD.LIMITS follow; INFO and SEARCH cells do not). */
  limitsChanged(): void;
  /**
   * A reading lifted the member-budget blocks of these request keys (a raised budget): the cells
   * that show them, which the refusal left in no retry, ask again.
   */
  blocksLifted?(keys: readonly string[]): void;
  /**
   * Signed in through a team gateway: a quota refusal there stops only the codes it would have
   * to buy, so refused calls are halved and single codes blocked, not the whole dataset.
   */
  throughGateway?(): boolean;
  /** Timers for settling reads (the real ones by default). */
  scheduler?: Scheduler;
  log?: Logger;
}

export class DataLimitsKeeper {
  private readonly fetching = new Map<string, Promise<DataLimits>>();
  /** Counts sign-ins: a reading started under an earlier one is not this account's. */
  private session = 0;
  /** Per environment|product: when its last read failed, how, and how many failed in a row. */
  private readonly failed = new Map<string, { at: number; error: unknown; failures: number }>();
  /** Products whose limits were read ahead this session (cleared at sign-in). */
  private readonly readAheadDone = new Set<ProductId>();
  /** Per environment|product: cancels the settling read waiting for the calls to stay over. */
  private readonly settling = new Map<string, () => void>();
  /** The request key of each request blocked alone (by its refusedRequest name). */
  private readonly blockedKeys = new Map<string, string>();

  constructor(private readonly parts: DataLimitsParts) {}

  /** The service answers again: reads held back after failures may go at once. */
  forgetFailures(): void {
    this.failed.clear();
  }

  /**
   * A new account may have other allowances: read ahead again. A reading still on its way
   * belongs to the account before: it is neither recorded nor handed to anyone who asks now.
   */
  newSession(): void {
    this.session += 1;
    this.fetching.clear();
    this.failed.clear();
    this.readAheadDone.clear();
    this.blockedKeys.clear();
    for (const cancel of this.settling.values()) cancel();
    this.settling.clear();
  }

  /**
   * Every product's allowances; the products whose Data Limits failed are listed apart.
   * `reread` (the user's Reload) reads every product again, however recent its reading; a
   * product that could not be read again shows its last reading and is listed in notReread.
   * Only the Usage tab and PCD.LIMITS ask for it: its code loads on their first use.
   */
  async report(options: { reread?: boolean } = {}): Promise<LimitsReport> {
    const environment = this.parts.environment();
    if (environment === "sandbox") return { rows: [], unavailable: [] };
    const { buildLimitsReport } = await loadLimitsReport();
    return buildLimitsReport(
      {
        environment,
        ledger: this.parts.ledger,
        limitsOf: (product, reread) => this.limitsOf(product, reread),
        ...(this.parts.log ? { log: this.parts.log } : {}),
      },
      options,
    );
  }

  /**
   * One product's allowances: a recent reading, else a new one, else the last known. With
   * `reread`, always a new one; when that fails and a last known reading is shown instead,
   * `reread` hears why and when that reading was taken.
   */
  async limitsOf(
    product: ProductId,
    reread?: (error: PcdError, readAt: number) => void,
  ): Promise<DataLimits> {
    const environment = this.parts.environment();
    const { ledger } = this.parts;
    // docs/service.md §4.7: monthly code limits do not apply to the sandbox.
    if (environment === "sandbox") return {};
    if (!reread && ledger.isCurrent(environment, product, LIMITS_MAX_AGE_MS)) {
      return ledger.limitsOf(environment, product) ?? {};
    }
    try {
      return await this.fetch(environment, product, reread !== undefined);
    } catch (error) {
      const known = ledger.limitsOf(environment, product);
      const readAt = ledger.fetchedAt(environment, product);
      // A reading from before the monthly release would show last month's allowance as now.
      if (known && readAt !== null && !ledger.readBeforeReset(environment, product)) {
        reread?.(toPcdError(error), readAt);
        return known;
      }
      throw error;
    }
  }

  /** Reads the products' limits unless a reading younger than `maxAgeMs` exists; never fails. */
  async ensure(products: readonly ProductId[], maxAgeMs = Infinity): Promise<void> {
    const environment = this.parts.environment();
    if (environment !== "live") return;
    await Promise.all(
      products.map(async (product) => {
        if (this.parts.ledger.isCurrent(environment, product, maxAgeMs)) return;
        try {
          await this.fetch(environment, product);
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
  readAhead(product: ProductId): void {
    // Once per product and session: every cell resolves a code (so this check comes first,
    // it is on every recalculation's path), and a read that failed is retried by the first
    // data call of the product anyway (the gate's prepare).
    if (this.readAheadDone.has(product)) return;
    if (this.parts.environment() !== "live" || !this.parts.signedIn()) return;
    this.readAheadDone.add(product);
    void this.ensure([product]);
  }

  /** A product's catalog is being fetched: its limits too, if the workbook may use it. */
  readAheadForCatalog(product: ProductId): void {
    const named = this.parts.workbookProducts();
    if (named.size === 0 || named.has(product)) this.readAhead(product);
  }

  /** What the batcher asks before and after each data call. */
  gate(): BatchGate {
    const { ledger } = this.parts;
    return {
      // Runs before the call waits for its send slot: the allowances (so admit never waits
      // on the service) and the token (a renewal or "not signed in" is found out before the
      // call holds a place in flight and a rate-limit turn it would then waste).
      prepare: async (item) => {
        await Promise.all([this.parts.token(), this.ensure([item.product])]);
      },
      admit: async (items, operation) => {
        const first = items[0];
        if (!first) return { admitted: [], refused: [] };
        const admission = ledger.admit(
          first.environment,
          first.product,
          items,
          (item) => item.dataset,
          (item) => refusedRequest(operation, item),
        );
        if (first.environment === "live") this.parts.limitsChanged();
        return admission;
      },
      refund: (items) => this.settle(items, "refund"),
      confirm: (items) => this.settle(items, "confirm"),
      unanswered: (items) => this.settle(items, "unanswered"),
      quotaRefused: (items, error, operation) => {
        const first = items[0];
        // Only a refusal that names a dataset blocks it: a daily quota or a plan limit
        // must not lock a dataset until the next release.
        const dataset = refusedDataset(items, error);
        if (!first || dataset === undefined) return () => error;
        // Through a team gateway a call is halved down to the requests refused alone
        // (splitRefusal): only that request is blocked, the ones the gateway keeps cost nothing.
        const request =
          this.parts.throughGateway?.() === true && items.length === 1
            ? refusedRequest(operation, first)
            : undefined;
        // Only a member's budget lifts by a reading (a raised budget): the cells of the team's
        // allowance wait for the release, so their keys are not kept for it.
        if (request !== undefined && error.details.memberBudget === true)
          this.blockedKeys.set(request, first.key);
        const blocked = ledger.block(first.environment, first.product, dataset, error, request);
        this.parts.limitsChanged();
        return (item: BatchItem) => (item.dataset === dataset ? blocked : "retry");
      },
      splitRefusal: (items, error) =>
        this.parts.throughGateway?.() === true && refusedDataset(items, error) !== undefined,
    };
  }

  private fetch(environment: ServiceEnvironment, product: ProductId, userAsked = false): Promise<DataLimits> {
    const scope = `${environment}|${product}`;
    const running = this.fetching.get(scope);
    if (running) return running;
    // A call in a known downtime window could only fail, after renewing the token for nothing.
    const down = this.parts.downtimeError(product);
    if (down) return Promise.reject(down);
    // A failing service is not asked again by every view and cell that looks meanwhile.
    const failed = this.failed.get(scope);
    if (
      !userAsked &&
      failed &&
      this.parts.now() - failed.at < failureBackoff(LIMITS_RETRY_AFTER_FAILURE_MS, failed.failures)
    ) {
      return Promise.reject(failed.error);
    }
    const session = this.session;
    const fetching: Promise<DataLimits> = (async () => {
      let limits: DataLimits;
      const reading = this.parts.ledger.readStarted(environment, product);
      try {
        limits = await this.parts.read(product);
      } catch (error) {
        if (session !== this.session) return this.fetch(environment, product, userAsked);
        this.failed.set(scope, { at: this.parts.now(), error, failures: (failed?.failures ?? 0) + 1 });
        throw error;
      }
      // Another account signed in meanwhile: its own reading answers whoever waited on this one.
      if (session !== this.session) return this.fetch(environment, product, userAsked);
      this.failed.delete(scope);
      const before = this.shown(environment, product);
      const lifted = this.parts.ledger.record(environment, product, limits, reading);
      this.tellLifted(lifted);
      // Only news is told: a view that reads the limits whenever they change would otherwise
      // read them again because of its own reading.
      if (this.shown(environment, product) !== before) this.parts.limitsChanged();
      this.settleLater(environment, product);
      return this.parts.ledger.limitsOf(environment, product) ?? {};
    })().finally(() => {
      if (this.fetching.get(scope) === fetching) this.fetching.delete(scope);
    });
    this.fetching.set(scope, fetching);
    return fetching;
  }

  /** Cells of requests whose block a reading lifted hear it (their refusal armed no retry). */
  private tellLifted(requests: readonly string[]): void {
    const keys: string[] = [];
    for (const request of requests) {
      const key = this.blockedKeys.get(request);
      this.blockedKeys.delete(request);
      if (key !== undefined) keys.push(key);
    }
    if (keys.length > 0) this.parts.blocksLifted?.(keys);
  }

  /** What the usage bars show of a product (remaining, total and unconfirmed per dataset), as one text. */
  private shown(environment: ServiceEnvironment, product: ProductId): string {
    const limits = this.parts.ledger.limitsOf(environment, product);
    if (limits === undefined) return "";
    return JSON.stringify(
      Object.entries(limits).map(([dataset, allowance]) => [
        dataset,
        allowance,
        this.parts.ledger.unconfirmed(environment, product, dataset),
      ]),
    );
  }

  /** Settles what a call's codes cost in the ledger; the usage bars follow. */
  private settle(items: readonly BatchItem[], outcome: "refund" | "confirm" | "unanswered"): void {
    const first = items[0];
    if (!first) return;
    const datasets = items.map((item) => item.dataset);
    this.parts.ledger[outcome](first.environment, first.product, datasets);
    // The allowances moved, not the catalog: INFO and SEARCH cells must not re-run per call.
    if (first.environment === "live") this.parts.limitsChanged();
    this.settleLater(first.environment, first.product);
  }

  /**
   * A reading taken while calls were under way is read again once the product's calls have
   * been over for LIMITS_SETTLE_QUIET_MS: the usage bars and PCD.LIMITS then show the service's
   * own figure. Each call's end starts the wait again, so a run of calls ends in one read.
   */
  private settleLater(environment: ServiceEnvironment, product: ProductId): void {
    if (environment !== "live" || !this.parts.ledger.needsSettling(environment, product)) return;
    const scope = `${environment}|${product}`;
    this.settling.get(scope)?.();
    const scheduler = this.parts.scheduler ?? realScheduler;
    this.settling.set(
      scope,
      scheduler.after(
        LIMITS_SETTLE_QUIET_MS,
        () => {
          this.settling.delete(scope);
          const { ledger } = this.parts;
          if (this.parts.environment() !== environment || !this.parts.signedIn()) return;
          if (!ledger.needsSettling(environment, product)) return;
          this.fetch(environment, product).catch((error: unknown) =>
            this.parts.log?.("warn", `Data Limits of ${product} not read again (${errorMessage(error)})`),
          );
        },
        { background: true },
      ),
    );
  }
}

/**
 * What a team gateway refuses or serves on its own: one operation of one request key (a code in
 * a currency and unit); the same code in another currency, or its other part, may be kept.
 */
function refusedRequest(operation: DataCallOperation, item: BatchItem): string {
  return `${operation}|${item.key}`;
}

/**
 * The dataset a quota refusal names (by its details, or quoted in the service's words) among
 * the call's; undefined when it names none of them (a daily quota, a plan's limit on series).
 */
function refusedDataset(items: readonly BatchItem[], error: PcdError): string | undefined {
  const said = error.details.serverMessage ?? error.message;
  return (
    error.details.dataset ??
    [...new Set(items.map((item) => item.dataset))].find((name) => said.includes(`'${name}'`))
  );
}

let limitsReportModule: Promise<typeof import("./limits-report")> | undefined;

/** The report's module, loaded once; a failed load is tried again by the next report. */
async function loadLimitsReport(): Promise<typeof import("./limits-report")> {
  limitsReportModule ??= import(/* webpackChunkName: "limits-report" */ "./limits-report");
  try {
    return await limitsReportModule;
  } catch (error) {
    limitsReportModule = undefined;
    throw new PcdError(
      "network",
      `The add-in could not load its Data Limits report (${errorMessage(error)}): check the connection and try again.`,
    );
  }
}
