// Builders of normalised Series Info records and monthly points for tests that need series
// data without an engine (task pane views, table shapes).
import type { MonthlyPoint, SeriesInfo } from "../../src/core/model";
import { seriesInfo } from "../core/support/series-fixtures";

/**
 * A Series Info record with the defaults these views were written against (the engine
 * tests' builder, test/core/support/series-fixtures.ts, with an earlier release month).
 */
export function makeInfo(overrides: Partial<SeriesInfo> & { code: string }): SeriesInfo {
  return seriesInfo({
    productName: "Energy Price",
    availableCurrencies: ["EUR", "USD"],
    availableUnits: ["MWh", "kWh"],
    lastAvailableFinal: "2025-06",
    updatedAt: "2025-07-04",
    ...overrides,
  });
}

/** Monthly points from `from` for `count` months, values start, start+step, ... */
export function monthlyPoints(from: string, count: number, start = 100, step = 1): MonthlyPoint[] {
  const [year, month] = from.split("-").map(Number) as [number, number];
  return Array.from({ length: count }, (_, index) => {
    const total = year * 12 + (month - 1) + index;
    const label = `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
    return { month: label, value: start + index * step };
  });
}
