// The seam between the transport half of the engine (auth, HTTP, schemas, rate
// limiting, retries) and the data half (catalog, batcher, cache, sync). The data half
// depends only on this interface, so it can be tested with a fake service.
import type {
  CodeRequest,
  DataLimits,
  ProductId,
  SeriesInfo,
  SeriesValues,
  ServiceEnvironment,
} from "./model";
import type { PcdError } from "./errors";

/** A data call's records by code: the series, or the error that says why its record is unusable. */
export type SeriesAnswer = Map<string, SeriesValues | PcdError>;

export interface CallOptions {
  /** Aborts the call (and its retries). */
  signal?: AbortSignal;
  /** A send slot already granted by reserveSlot: the first attempt uses it instead of queueing. */
  slot?: SendSlot;
  /** One attempt, no retry: the caller has its own schedule (the outage probe). */
  once?: boolean;
}

/**
 * The right to start one HTTP request now, within the rate limit and the in-flight cap.
 * The batcher reserves one before it chooses a call's codes, so the codes are bound at
 * the moment the call can leave, not seconds earlier while it waits its turn.
 */
export interface SendSlot {
  /** Runs the request in this slot (once); the slot is freed when the request ends. */
  run<T>(attempt: () => Promise<T>): Promise<T>;
  /** Frees a slot that will not be used (no effect once run). */
  release(): void;
}

/** The operations that fetch series data (and cost data requests). */
export type DataCallOperation = "series_values" | "series_hist";

/** A Series Values or History call names at most this many codes (docs/service.md §4.3). */
export const MAX_CODES_PER_CALL = 40;

/**
 * Typed operations of docs/service.md §4, already authenticated, rate-limited and retried.
 * Every catalog and data call names its environment: the caller's (the request key's, the
 * catalog entry's), never the settings' at send time, so an environment switch between
 * queueing a call and sending it cannot make one environment's answer land in the
 * other's cells or cache.
 */
export interface ServiceClient {
  /** Series Info of one product in the given environment. */
  seriesInfo(
    environment: ServiceEnvironment,
    product: ProductId,
    options?: CallOptions,
  ): Promise<SeriesInfo[]>;
  /**
   * Series Values for 1 to 40 distinct codes of one product and data type. Returns the
   * records it received keyed by code; a code missing from the answer is absent, and a
   * code whose record cannot be used (a final value for a month still to come) maps to the
   * error that says why.
   */
  seriesValues(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
    options?: CallOptions,
  ): Promise<SeriesAnswer>;
  /** Series Values History, same contract as seriesValues. */
  seriesHistory(
    environment: ServiceEnvironment,
    product: ProductId,
    codes: readonly CodeRequest[],
    options?: CallOptions,
  ): Promise<SeriesAnswer>;
  /** Data Limits of one product (live only: the spec shows no sandbox variant). */
  dataLimits(product: ProductId, options?: CallOptions): Promise<DataLimits>;
  /**
   * Waits for a send slot of a data operation. Every slot must be run or released, or the
   * rate gate loses it. Absent: calls leave at once (fakes without a rate limit).
   */
  reserveSlot?(operation: DataCallOperation): Promise<SendSlot>;
}
