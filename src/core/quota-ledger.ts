// Local bookkeeping of the per-dataset monthly allowances (docs/service.md §8.2, rules 1-4). Data
// Limits is fetched rarely; between fetches every code sent is subtracted here, so a
// call that would exceed an allowance is never sent (an exhausted allowance would fail
// the whole call and, on some plans, still count). Everything resets at the release.
import { PcdError } from "./errors";
import type { DataLimits, ProductId, ServiceEnvironment } from "./model";

export interface QuotaLedgerOptions {
  now: () => number;
  /** Epoch ms of the start of the latest monthly release (allowances reset then). */
  latestReleaseStart: () => number;
  /** Epoch ms of the next release, for messages. */
  nextRelease: () => number;
}

interface ProductLimits {
  limits: DataLimits;
  fetchedAt: number;
}

interface Block {
  /** The release start that was current when the service refused; the block lifts when it moves. */
  releaseStart: number;
  error: PcdError;
}

export interface Admission<T> {
  admitted: T[];
  refused: Array<{ item: T; error: PcdError }>;
}

function productKey(environment: ServiceEnvironment, product: ProductId): string {
  return `${environment}|${product}`;
}

function datasetKey(environment: ServiceEnvironment, product: ProductId, dataset: string): string {
  return `${environment}|${product}|${dataset}`;
}

function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export class QuotaLedger {
  private readonly products = new Map<string, ProductLimits>();
  private readonly blocks = new Map<string, Block>();

  constructor(private readonly options: QuotaLedgerOptions) {}

  /** Records a Data Limits answer (it replaces local decrements: the service is the truth). */
  record(environment: ServiceEnvironment, product: ProductId, limits: DataLimits): void {
    this.products.set(productKey(environment, product), {
      limits: structuredClone(limits),
      fetchedAt: this.options.now(),
    });
  }

  /** The limits as known locally (decremented since the fetch), or undefined. */
  limitsOf(environment: ServiceEnvironment, product: ProductId): DataLimits | undefined {
    const known = this.products.get(productKey(environment, product));
    return known ? structuredClone(known.limits) : undefined;
  }

  /** Epoch ms of the Data Limits answer the ledger holds, or null. */
  fetchedAt(environment: ServiceEnvironment, product: ProductId): number | null {
    return this.products.get(productKey(environment, product))?.fetchedAt ?? null;
  }

  /** Known and fetched after the latest release started (older counts were reset since). */
  isCurrent(environment: ServiceEnvironment, product: ProductId, maxAgeMs = Infinity): boolean {
    const fetchedAt = this.fetchedAt(environment, product);
    if (fetchedAt === null) return false;
    return fetchedAt >= this.options.latestReleaseStart() && this.options.now() - fetchedAt < maxAgeMs;
  }

  remaining(environment: ServiceEnvironment, product: ProductId, dataset: string): number | null {
    return (
      allowanceOf(this.products.get(productKey(environment, product))?.limits, dataset)?.remaining ?? null
    );
  }

  /**
   * Splits items into those the allowances can pay for (and charges them) and those
   * refused with a quota error naming the dataset. Sandbox has no allowances.
   */
  admit<T>(
    environment: ServiceEnvironment,
    product: ProductId,
    items: readonly T[],
    datasetOf: (item: T) => string,
  ): Admission<T> {
    const admission: Admission<T> = { admitted: [], refused: [] };
    const known = this.products.get(productKey(environment, product));
    for (const item of items) {
      const dataset = datasetOf(item);
      const blocked = this.blockOf(environment, product, dataset);
      if (blocked) {
        admission.refused.push({ item, error: blocked });
        continue;
      }
      const allowance = environment === "live" ? allowanceOf(known?.limits, dataset) : undefined;
      if (allowance && allowance.remaining <= 0) {
        admission.refused.push({
          item,
          error: this.exhausted(dataset, allowance.remaining, allowance.total),
        });
        continue;
      }
      if (allowance) allowance.remaining -= 1;
      admission.admitted.push(item);
    }
    return admission;
  }

  /** Gives back charges for codes a call never delivered to the service (a rejected call). */
  refund(environment: ServiceEnvironment, product: ProductId, datasets: readonly string[]): void {
    const known = this.products.get(productKey(environment, product));
    for (const dataset of datasets) {
      const allowance = allowanceOf(known?.limits, dataset);
      if (allowance) allowance.remaining = Math.min(allowance.total, allowance.remaining + 1);
    }
  }

  /** After the service said the dataset's quota is reached: no more calls until the next release. */
  block(environment: ServiceEnvironment, product: ProductId, dataset: string, cause?: PcdError): PcdError {
    const allowance = allowanceOf(this.products.get(productKey(environment, product))?.limits, dataset);
    if (allowance) allowance.remaining = 0;
    const error = this.exhausted(dataset, 0, allowance?.total ?? null, cause);
    this.blocks.set(datasetKey(environment, product, dataset), {
      releaseStart: this.options.latestReleaseStart(),
      error,
    });
    return error;
  }

  blockOf(environment: ServiceEnvironment, product: ProductId, dataset: string): PcdError | undefined {
    const key = datasetKey(environment, product, dataset);
    const block = this.blocks.get(key);
    if (!block) return undefined;
    if (block.releaseStart !== this.options.latestReleaseStart()) {
      this.blocks.delete(key);
      return undefined;
    }
    return block.error;
  }

  clear(): void {
    this.products.clear();
    this.blocks.clear();
  }

  private exhausted(dataset: string, remaining: number, total: number | null, cause?: PcdError): PcdError {
    const counts = total === null ? "" : ` (${Math.max(0, remaining)} of ${total} left)`;
    return new PcdError(
      "quota",
      `Monthly allowance used up for dataset '${dataset}'${counts}; it resets at the next monthly release, ` +
        `${formatDate(this.options.nextRelease())}.`,
      { ...cause?.details, dataset },
    );
  }
}

/**
 * A dataset's allowance: own entries only. Dataset names are the service's text, so a
 * dataset named "constructor" must not find Object.prototype's.
 */
function allowanceOf(limits: DataLimits | undefined, dataset: string): DataLimits[string] | undefined {
  return limits !== undefined && Object.hasOwn(limits, dataset) ? limits[dataset] : undefined;
}
