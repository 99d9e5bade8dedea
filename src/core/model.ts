// Domain types shared by every engine module and the layers above it. They describe
// the service (docs/service.md) after normalisation: raw responses are
// validated and converted into these shapes at the HTTP boundary, so nothing above
// the client ever sees string booleans, "-" markers or unsorted arrays.

import type { PointColumns } from "./point-columns";

/** The three data products; the value is the product's base path without the slash. */
export type ProductId = "energy_price" | "commodity_price" | "industry_economics";

export const PRODUCTS: readonly ProductId[] = ["energy_price", "commodity_price", "industry_economics"];

/**
 * What a call may mix: the industry economics product accepts codes of one data
 * type per call (docs/service.md §6.7), the other products have a single type each.
 */
export type DataType = "energy" | "commodity" | "utilities" | "location_factor" | "cost_index";

export type ServiceEnvironment = "live" | "sandbox";

/** The five operations of docs/service.md §4, named as the emulator's counters name them. */
export type Operation = "access_token" | "series_info" | "series_values" | "series_hist" | "data_limits";

/** A month as "YYYY-MM" (the service's dates are always the first day of a month). */
export type Month = string;

export interface MonthlyPoint {
  month: Month;
  value: number;
}

/** One Series Info record (docs/service.md §2.1), normalised. */
export interface SeriesInfo {
  code: string;
  product: ProductId;
  /** The `product` text as the service sent it. */
  productName: string;
  dataType: DataType;
  assessment: string;
  commodity: string;
  /** The dataset the assessment's allowance is drawn from (a country, sector or region). */
  coverage: string;
  location: string;
  /** Optional texts: null where the service sent a "not applicable" marker. */
  area: string | null;
  details: string | null;
  specification: string | null;
  remark1: string | null;
  remark2: string | null;
  /** From remark_1 "lag: <n>", null when absent or unreadable. */
  lag: number | null;
  defaultCurrency: string | null;
  defaultUnit: string | null;
  availableCurrencies: string[];
  availableUnits: string[];
  /** Booleans the service sent as true/false or "True"/"False"; anything else is null (unknown). */
  hasForecast: boolean | null;
  hasPreliminary: boolean | null;
  seriesHistChanged: boolean | null;
  lastAvailableFinal: Month | null;
  /** "YYYY-MM-DD" */
  updatedAt: string | null;
  /** Every field exactly as received, for PCD.INFO (which shows raw text, markers included). */
  raw: Readonly<Record<string, unknown>>;
}

/** One Series Values / Series Values History record (docs/service.md §2.2), normalised. */
export interface SeriesValues {
  code: string;
  /** Currency and unit short names the service says it applied. */
  currency: string | null;
  unit: string | null;
  updatedAt: string | null;
  /** Oldest first, one point per month (duplicates dropped, the last seen kept). */
  finals: PointColumns;
  forecasts: PointColumns;
}

/** A member's own budget of data requests for a dataset, set by a team gateway. */
export interface MemberBudget {
  /** Data requests the member may cause from one monthly release to the next. */
  budget: number;
  remaining: number;
  /** Epoch ms when the gateway gives the budget back (the next release); absent: not said. */
  resetsAt?: number;
}

/** One dataset's monthly allowance: the account's (the team's, through a gateway). */
export interface DatasetAllowance {
  remaining: number;
  total: number;
  /** Through a team gateway that gives the signed-in member a budget; absent otherwise. */
  member?: MemberBudget;
}

/** Data Limits (docs/service.md §2.3): dataset name -> allowance. Dataset names are opaque strings. */
export type DataLimits = Record<string, DatasetAllowance>;

/** One code of a data call with its options (docs/service.md §4.6); null means "not sent" (the default). */
export interface CodeRequest {
  code: string;
  currencyId: number | null;
  unitId: number | null;
}
