// Everything one running emulator knows, wired together: options, clock, catalog, value
// model, releases, quotas, rate limiter, faults, token issuer and the admin counters.
import { TokenIssuer } from "./auth";
import { catalogForSeed, type Catalog, type ProductId } from "./catalog";
import { centralDate } from "./central-time";
import { OffsetClock, type TimeSource } from "./clock";
import { FaultInjector } from "./faults";
import { OPERATIONS, type Operation } from "./operations";
import type { EmulatorOptions } from "./options";
import { QuotaBook } from "./quotas";
import { SlidingWindowLimiter, type MonotonicClock } from "./rate-limit";
import { ReleaseState } from "./release-state";
import { ValueModel } from "./values";

export interface EmulatorStats {
  calls: Record<Operation, number>;
  /** Charged codes per dataset name (datasets of the same name in two products add up). */
  dataRequests: Record<string, number>;
  /** The same, per product, for tests that need to tell "Germany" of two products apart. */
  dataRequestsByProduct: Record<ProductId, Record<string, number>>;
}

function emptyStats(): EmulatorStats {
  return {
    calls: Object.fromEntries(OPERATIONS.map((operation) => [operation, 0])) as Record<Operation, number>,
    dataRequests: {},
    dataRequestsByProduct: { energy_price: {}, commodity_price: {}, industry_economics: {} },
  };
}

/** Time sources, injectable for tests: the real time under the offset clock, and the rate limiter's. */
export interface EmulatorClocks {
  realNow?: TimeSource;
  monotonic?: MonotonicClock;
  /** The latency's wait (default: a real timer), ended early by `signal` when the client hangs up. */
  wait?: LatencyWait;
}

export type LatencyWait = (ms: number, signal: AbortSignal) => Promise<void>;

export class EmulatorState {
  readonly clock: OffsetClock;
  readonly catalog: Catalog;
  readonly model: ValueModel;
  readonly quotas: QuotaBook;
  readonly releases: ReleaseState;
  readonly limiter: SlidingWindowLimiter;
  readonly faults: FaultInjector;
  readonly tokens: TokenIssuer;
  readonly wait: LatencyWait | undefined;
  stats: EmulatorStats = emptyStats();

  constructor(
    readonly options: EmulatorOptions,
    clocks: EmulatorClocks = {},
  ) {
    this.clock = new OffsetClock(
      options.now === undefined ? undefined : new Date(options.now),
      clocks.realNow ?? Date.now,
    );
    this.catalog = catalogForSeed(options.seed);
    this.model = new ValueModel(options.seed);
    this.quotas = new QuotaBook({
      allowance: options.allowance,
      dailyQuota: options.dailyQuota,
      seriesInfoMonthlyQuota: options.seriesInfoMonthlyQuota,
    });
    this.releases = new ReleaseState(options.seed, this.catalog, this.clock, options.releaseHour, () =>
      this.quotas.resetMonthly(),
    );
    this.limiter = new SlidingWindowLimiter(options.rateLimitPerSecond, 1000, clocks.monotonic);
    this.faults = new FaultInjector(options.seed);
    this.tokens = new TokenIssuer(options.user, options.password, options.tokenTtlSeconds, this.clock);
    this.wait = clocks.wait;
  }

  /** Only datasets in the subscription are visible (docs/service.md §1); the rest behave like unknown codes. */
  isSubscribed(dataset: string): boolean {
    const subscribed = this.options.subscribedDatasets;
    return subscribed === undefined || subscribed.includes(dataset);
  }

  /** The US Central calendar day that daily quotas count. */
  today(): string {
    return centralDate(this.clock.now());
  }

  countCall(operation: Operation): void {
    this.stats.calls[operation] += 1;
  }

  countDataRequests(product: ProductId, perDataset: ReadonlyMap<string, number>): void {
    const byProduct = this.stats.dataRequestsByProduct[product];
    for (const [dataset, count] of perDataset) {
      this.stats.dataRequests[dataset] = (this.stats.dataRequests[dataset] ?? 0) + count;
      byProduct[dataset] = (byProduct[dataset] ?? 0) + count;
    }
  }

  /** /__admin/reset: counters and quotas back to the start (clock, plan, releases and faults stay). */
  resetCounters(): void {
    this.stats = emptyStats();
    this.quotas.resetAll();
    this.limiter.reset();
  }
}
