// Builders of normalised Series Info records and monthly points for tests that need series
// data without an engine (task pane views, table shapes).
import type { MonthlyPoint, SeriesInfo } from "../../src/core/model";

export function makeInfo(overrides: Partial<SeriesInfo> & { code: string }): SeriesInfo {
  return {
    product: "energy_price",
    productName: "Energy Price",
    dataType: "energy",
    assessment: `Assessment ${overrides.code}`,
    commodity: "Natural gas",
    coverage: "Germany",
    location: "Germany",
    area: null,
    details: null,
    specification: null,
    remark1: "lag: 1",
    remark2: null,
    lag: 1,
    defaultCurrency: "EUR",
    defaultUnit: "MWh",
    availableCurrencies: ["EUR", "USD"],
    availableUnits: ["MWh", "kWh"],
    hasForecast: true,
    hasPreliminary: false,
    seriesHistChanged: false,
    lastAvailableFinal: "2025-06",
    updatedAt: "2025-07-04",
    raw: {},
    ...overrides,
  };
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
