// The quota book of docs/service.md §8 and docs/decisions.md D25: a daily call quota (US Central
// days), sandbox daily quotas per operation, the monthly Series Info quota and the monthly
// data-request allowance per product and dataset. Monthly quotas reset at each release.
// Charging a call is all-or-nothing: if any dataset lacks allowance, nothing is charged.
import type { ProductId } from "./catalog";
import { SANDBOX_DAILY_QUOTAS } from "./options";
import { ServiceError } from "./service-error";

export type SandboxOperation = keyof typeof SANDBOX_DAILY_QUOTAS;

export interface QuotaLimits {
  allowance: number;
  dailyQuota: number;
  seriesInfoMonthlyQuota: number;
}

function datasetKey(product: ProductId, dataset: string): string {
  return `${product}|${dataset}`;
}

export class QuotaBook {
  private day = "";
  private dailyCalls = 0;
  private sandboxCalls = new Map<SandboxOperation, number>();
  private seriesInfoCalls = 0;
  private readonly used = new Map<string, number>();

  constructor(private readonly limits: QuotaLimits) {}

  get allowance(): number {
    return this.limits.allowance;
  }

  setAllowance(allowance: number): void {
    this.limits.allowance = allowance;
  }

  /** Counts one live call against the daily quota (and Series Info's monthly quota). */
  chargeLiveCall(today: string, seriesInfo: boolean): void {
    this.rollDay(today);
    if (this.dailyCalls >= this.limits.dailyQuota) {
      throw new ServiceError(
        403,
        `Quota limit reached: daily quota of ${this.limits.dailyQuota} requests used for ${today}`,
      );
    }
    if (seriesInfo && this.seriesInfoCalls >= this.limits.seriesInfoMonthlyQuota) {
      throw new ServiceError(
        403,
        `Quota limit reached: monthly Series Info quota of ${this.limits.seriesInfoMonthlyQuota} requests used`,
      );
    }
    this.dailyCalls += 1;
    if (seriesInfo) this.seriesInfoCalls += 1;
  }

  chargeSandboxCall(today: string, operation: SandboxOperation): void {
    this.rollDay(today);
    const used = this.sandboxCalls.get(operation) ?? 0;
    const limit = SANDBOX_DAILY_QUOTAS[operation];
    if (used >= limit) {
      throw new ServiceError(
        403,
        `Quota limit reached: sandbox daily quota of ${limit} ${operation} requests used for ${today}`,
      );
    }
    this.sandboxCalls.set(operation, used + 1);
  }

  /** Checks every dataset first, then charges all of them: a rejected call costs nothing. */
  chargeDataRequests(product: ProductId, perDataset: ReadonlyMap<string, number>): void {
    for (const [dataset, count] of perDataset) {
      const used = this.usedOf(product, dataset);
      if (used + count > this.limits.allowance) {
        const need = used < this.limits.allowance ? `; this call needs ${count}` : "";
        throw new ServiceError(
          403,
          `Quota limit reached for dataset '${dataset}': ${used} of ${this.limits.allowance} monthly data requests used${need}`,
        );
      }
    }
    for (const [dataset, count] of perDataset) {
      this.used.set(datasetKey(product, dataset), this.usedOf(product, dataset) + count);
    }
  }

  /** The Data Limits report (docs/service.md §2.3) of a product's datasets. */
  report(
    product: ProductId,
    datasets: readonly string[],
  ): Record<string, { remaining_requests: number; total_requests: number }> {
    const report: Record<string, { remaining_requests: number; total_requests: number }> = {};
    for (const dataset of datasets) {
      report[dataset] = {
        remaining_requests: Math.max(0, this.limits.allowance - this.usedOf(product, dataset)),
        total_requests: this.limits.allowance,
      };
    }
    return report;
  }

  /** Sets what remains of a dataset's allowance this month (test control). */
  setRemaining(product: ProductId, dataset: string, remaining: number): void {
    this.used.set(datasetKey(product, dataset), this.limits.allowance - remaining);
  }

  /** At a release: all monthly quotas return to their totals. */
  resetMonthly(): void {
    this.used.clear();
    this.seriesInfoCalls = 0;
  }

  resetAll(): void {
    this.resetMonthly();
    this.dailyCalls = 0;
    this.sandboxCalls = new Map();
  }

  private usedOf(product: ProductId, dataset: string): number {
    return this.used.get(datasetKey(product, dataset)) ?? 0;
  }

  private rollDay(today: string): void {
    if (today === this.day) return;
    this.day = today;
    this.dailyCalls = 0;
    this.sandboxCalls = new Map();
  }
}
