// The seam between the transport half of the engine (auth, HTTP, schemas, rate
// limiting, retries) and the data half (catalog, batcher, cache, sync). The data half
// depends only on this interface, so it can be tested with a fake service.
import type { CodeRequest, DataLimits, ProductId, SeriesInfo, SeriesValues } from "./model";

export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
}

/** Typed operations of spec section 4, already authenticated, rate-limited and retried. */
export interface ServiceClient {
  /** Series Info of one product (live or sandbox per the current settings). */
  seriesInfo(product: ProductId, options?: CallOptions): Promise<SeriesInfo[]>;
  /**
   * Series Values for 1 to 40 distinct codes of one product and data type. Returns the
   * records it received keyed by code; a code missing from the answer is absent.
   */
  seriesValues(
    product: ProductId,
    codes: readonly CodeRequest[],
    options?: CallOptions,
  ): Promise<Map<string, SeriesValues>>;
  /** Series Values History, same contract as seriesValues. */
  seriesHistory(
    product: ProductId,
    codes: readonly CodeRequest[],
    options?: CallOptions,
  ): Promise<Map<string, SeriesValues>>;
  /** Data Limits of one product (live only: the spec shows no sandbox variant). */
  dataLimits(product: ProductId, options?: CallOptions): Promise<DataLimits>;
}
