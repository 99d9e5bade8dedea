// A complete cache entry for tests of the cache and its stored forms: one final month of the
// given value, no forecasts, the Series Values window and catalog state of November 2026.
import type { CacheEntry } from "../../src/core/cache";
import { PointColumns } from "../../src/core/point-columns";

export function cacheEntry(key: string, value = 1, overrides: Partial<CacheEntry> = {}): CacheEntry {
  return {
    key,
    finals: PointColumns.fromPoints([{ month: "2026-10", value }]),
    forecasts: PointColumns.EMPTY,
    currency: "EUR",
    unit: "MWh",
    updatedAt: "2026-11-04",
    lastFinal: "2026-10",
    fetchedAt: 1,
    catalogUpdatedAt: "2026-11-04",
    covered: [{ from: "2025-10", to: "2026-10" }],
    valuesAsOf: "2026-11-04",
    historyAsOf: null,
    ...overrides,
  };
}
