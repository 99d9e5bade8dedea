// Builders for normalised Series Info / Series Values records used across engine tests.
import type {
  DataType,
  Month,
  MonthlyPoint,
  ProductId,
  SeriesInfo,
  SeriesValues,
} from "../../../src/core/model";
import { monthIndex } from "../../../src/core/months";
import { PointColumns } from "../../../src/core/point-columns";

const DATA_TYPE_OF: Record<ProductId, DataType> = {
  energy_price: "energy",
  commodity_price: "commodity",
  industry_economics: "utilities",
};

export function seriesInfo(overrides: Partial<SeriesInfo> & { code: string }): SeriesInfo {
  const product = overrides.product ?? "energy_price";
  return {
    product,
    productName: product,
    dataType: DATA_TYPE_OF[product],
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
    availableCurrencies: ["EUR", "USD", "GBP"],
    availableUnits: ["MWh", "kWh", "GJ"],
    hasForecast: true,
    hasPreliminary: false,
    seriesHistChanged: false,
    lastAvailableFinal: "2026-10",
    updatedAt: "2026-11-04",
    raw: {},
    ...overrides,
  };
}

export function monthAt(index: number): Month {
  const year = Math.floor(index / 12);
  return `${String(year).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** Consecutive monthly points from `from` to `to` inclusive, valued by `valueOf`. */
export function points(from: Month, to: Month, valueOf: (month: Month) => number = () => 1): MonthlyPoint[] {
  const result: MonthlyPoint[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i++)
    result.push({ month: monthAt(i), value: valueOf(monthAt(i)) });
  return result;
}

export function seriesValues(
  code: string,
  finals: MonthlyPoint[],
  forecasts: MonthlyPoint[] = [],
): SeriesValues {
  return {
    code,
    currency: "EUR",
    unit: "MWh",
    updatedAt: "2026-11-04",
    finals: PointColumns.fromPoints(finals),
    forecasts: PointColumns.fromPoints(forecasts),
  };
}
