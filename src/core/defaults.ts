// The engine's tuning values in one place: how long answers are reused, how calls are
// paced and packed, how long a failure is remembered. Each module reads its value from
// ENGINE_DEFAULTS (its own exported constant is that value, kept for its tests); the
// values a host may change are given to createEngine as `tuning` and checked there by
// resolveTuning, so a bad value fails when the engine is built, naming the option, not
// at the first cell. The service's own limits (40 codes per call, 10 calls per second per
// operation: docs/service.md §8.1) are why some of these are what they are.
import { PcdError } from "./errors";

export interface EngineTuning {
  /** A product's catalog (Series Info) is fresh this long: the data changes monthly. */
  catalogMaxAgeMs: number;
  /** An unknown code refreshes the catalogs at most this often (a new series may exist). */
  unknownCodeRefreshMs: number;
  /** After a failed Series Info, a cached catalog answers this long before asking again. */
  catalogRetryAfterFailureMs: number;
  /**
   * The refresh cost preview reads a catalog again by itself once it is this old. A pane left
   * open on the Usage tab re-plans all day, and Series Info has a monthly quota of its own: an
   * hour keeps a pane open around the clock to a fraction of it. A release on the calendar,
   * opening the tab, Check again and Refresh all read the catalogs at once.
   */
  previewCatalogMaxAgeMs: number;
  /**
   * Two Series Info calls of one product start at least this far apart unless the user asked
   * (Refresh all): whatever asks, a product's catalog is read at most this often.
   */
  catalogMinCallIntervalMs: number;
  /** ...and this far apart while the product has no catalog at all (cells cannot work without one). */
  catalogMinCallIntervalUncachedMs: number;
  /** Data Limits answers are reused this long (the ledger decrements meanwhile). */
  limitsMaxAgeMs: number;
  /** After a failed Data Limits read, a product's limits are not asked again for this long unless the user asks (Reload). */
  limitsRetryAfterFailureMs: number;
  /**
   * A Data Limits answer read while calls were under way is read again once the product's calls
   * have been over this long: one read after a run of calls, not one after each call.
   */
  limitsSettleQuietMs: number;
  /** A failed part of a series is not asked again for this long (charged answers are not resent). */
  recentFailureMs: number;
  /**
   * A part the service charged without a usable answer is not bought again for this long
   * (unless the catalog shows the series changed): a cell's retries at 1 and 5 minutes cost
   * nothing, the one at 15 minutes may buy it once more.
   */
  chargedFailureMs: number;
  /** A key whose last cell went away is kept this long (a recalculation cancels cells first). */
  releaseGraceMs: number;
  /** The workbook's key list is saved at most this often. */
  keySaveDelayMs: number;
  /** ...and while keys keep changing, the wait doubles up to this (workbook-keys.ts). */
  keySaveMaxDelayMs: number;
  /** The most keys read from a workbook's saved list (workbook-keys.ts). */
  maxStoredKeys: number;
  /**
   * A refresh-all nobody reviewed (the ribbon's, the automatic one after a release) runs only
   * while it would spend at most this share of each dataset's remaining data requests.
   */
  unreviewedRefreshMaxShare: number;
  /** A token lives this long when its JWT carries no expiry (docs/service.md §5). */
  tokenLifetimeMs: number;
  /** A token is renewed this long before it expires. */
  renewBeforeExpiryMs: number;
  /** The batcher waits this long after the last request before a partial call leaves. */
  batchWindowMs: number;
  /** ...and at most this long after the first. */
  batchMaxWaitMs: number;
  /** Calls per second per operation (the service allows 10). */
  requestsPerSecond: number;
  /** Calls in flight at once, over every operation. */
  maxInFlight: number;
  /**
   * Calls in flight at once through a team gateway, which paces the service's calls itself and
   * packs members' codes into shared calls: a member's calls held back behind the first few
   * would reach it after those calls left, and cost calls of their own.
   */
  gatewayMaxInFlight: number;
  /** A storage read or write that takes longer counts as failed (memory takes over). */
  storageTimeoutMs: number;
  /** PCD.SEARCH and the pane's search return at most this many hits unless asked otherwise. */
  searchLimit: number;
}

const MINUTE = 60_000;

export const ENGINE_DEFAULTS: Readonly<EngineTuning> = Object.freeze({
  catalogMaxAgeMs: 24 * 60 * MINUTE,
  unknownCodeRefreshMs: 60 * MINUTE,
  catalogRetryAfterFailureMs: 5 * MINUTE,
  previewCatalogMaxAgeMs: 60 * MINUTE,
  catalogMinCallIntervalMs: 5 * MINUTE,
  catalogMinCallIntervalUncachedMs: MINUTE,
  limitsMaxAgeMs: 5 * MINUTE,
  limitsRetryAfterFailureMs: 5 * MINUTE,
  limitsSettleQuietMs: 2_000,
  recentFailureMs: 30_000,
  chargedFailureMs: 15 * MINUTE,
  releaseGraceMs: 10_000,
  keySaveDelayMs: 1_000,
  keySaveMaxDelayMs: 8_000,
  maxStoredKeys: 20_000,
  unreviewedRefreshMaxShare: 0.5,
  tokenLifetimeMs: 2 * 60 * MINUTE,
  renewBeforeExpiryMs: 5 * MINUTE,
  batchWindowMs: 20,
  batchMaxWaitMs: 200,
  requestsPerSecond: 10,
  maxInFlight: 6,
  gatewayMaxInFlight: 24,
  storageTimeoutMs: 3_000,
  searchLimit: 50,
});

/** Values that count things (not durations): whole numbers of at least 1. */
const COUNTS: ReadonlySet<keyof EngineTuning> = new Set([
  "maxInFlight",
  "gatewayMaxInFlight",
  "requestsPerSecond",
  "searchLimit",
]);

/** The defaults with a host's changes, each checked; a bad one is an error naming the option. */
export function resolveTuning(overrides: Partial<EngineTuning> = {}): EngineTuning {
  const tuning: EngineTuning = { ...ENGINE_DEFAULTS };
  for (const [name, value] of Object.entries(overrides) as Array<[keyof EngineTuning, unknown]>) {
    if (value === undefined) continue;
    if (!Object.hasOwn(ENGINE_DEFAULTS, name)) {
      throw new PcdError("input", `Unknown engine option "${String(name)}".`);
    }
    const isCount = COUNTS.has(name);
    const valid =
      typeof value === "number" &&
      Number.isFinite(value) &&
      (isCount ? Number.isInteger(value) && value >= 1 : value >= 0);
    if (!valid) {
      const expected = isCount ? "a whole number of at least 1" : "a number of milliseconds (0 or more)";
      throw new PcdError("input", `The engine option ${name} must be ${expected}; got ${String(value)}.`);
    }
    tuning[name] = value;
  }
  if (tuning.batchMaxWaitMs < tuning.batchWindowMs) {
    throw new PcdError(
      "input",
      `The engine option batchMaxWaitMs (${tuning.batchMaxWaitMs}) must not be shorter than batchWindowMs (${tuning.batchWindowMs}).`,
    );
  }
  return tuning;
}
