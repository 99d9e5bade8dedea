import type { SeriesInfo } from "../../src/core/model";
import {
  browseOrder,
  commonChoices,
  countByProduct,
  filterChoices,
  groupByProduct,
  matchesFilters,
  NO_FILTERS,
  searchOptions,
  SEARCH_LIMIT,
  takesCurrencyAndUnit,
  type SeriesFilters,
} from "../../src/taskpane/series-filters";
import { makeInfo } from "../support/series-records";

const gasDe = makeInfo({ code: "1-1-1", commodity: "Natural gas", coverage: "Germany", hasForecast: true });
const gasFr = makeInfo({ code: "1-1-2", commodity: "Natural gas", coverage: "France", hasForecast: false });
const powerDe = makeInfo({
  code: "2-1-10",
  commodity: "Electricity",
  coverage: "Germany",
  hasForecast: null,
});
const powerDe2 = makeInfo({
  code: "2-1-9",
  commodity: "Electricity",
  coverage: "Germany",
  hasForecast: true,
});
const CATALOG = [gasDe, gasFr, powerDe, powerDe2];

test.each<[string, Partial<SeriesFilters>, SeriesInfo[]]>([
  ["no filter", {}, CATALOG],
  ["coverage", { coverage: "Germany" }, [gasDe, powerDe, powerDe2]],
  ["commodity", { commodity: "Natural gas" }, [gasDe, gasFr]],
  ["both", { coverage: "Germany", commodity: "Natural gas" }, [gasDe]],
  ["has forecast keeps only a clear yes", { hasForecast: true }, [gasDe, powerDe2]],
  ["nothing matches", { coverage: "Japan" }, []],
])("matchesFilters: %s", (_name, filters, expected) => {
  expect(CATALOG.filter((info) => matchesFilters(info, { ...NO_FILTERS, ...filters }))).toEqual(expected);
});

test("browseOrder sorts by commodity, coverage, then code in numeric order", () => {
  expect(browseOrder(CATALOG, NO_FILTERS).map((info) => info.code)).toEqual([
    "2-1-9",
    "2-1-10",
    "1-1-2",
    "1-1-1",
  ]);
});

test("filterChoices lists distinct values, sorted, without blanks", () => {
  const blank = makeInfo({ code: "3-1-1", coverage: " " });
  expect(filterChoices([...CATALOG, blank], "coverage")).toEqual(["France", "Germany"]);
  expect(filterChoices(CATALOG, "commodity")).toEqual(["Electricity", "Natural gas"]);
});

test.each<[string, Partial<SeriesFilters>, object]>([
  ["no filters", {}, { product: "energy_price", limit: SEARCH_LIMIT }],
  [
    "every filter",
    { coverage: "Germany", commodity: "Natural gas", hasForecast: true },
    {
      product: "energy_price",
      limit: SEARCH_LIMIT,
      coverage: "Germany",
      commodity: "Natural gas",
      hasForecast: true,
    },
  ],
])("searchOptions: %s", (_name, filters, expected) => {
  expect(searchOptions("energy_price", { ...NO_FILTERS, ...filters })).toEqual(expected);
});

test.each<[string, SeriesInfo[], string[], string[]]>([
  ["none selected", [], [], []],
  ["one series: its own lists", [gasDe], ["EUR", "USD"], ["MWh", "kWh"]],
  [
    "several: only what all offer, in the first one's order",
    [
      makeInfo({ code: "1-1-1", availableCurrencies: ["USD", "EUR", "GBP"], availableUnits: ["MWh", "kWh"] }),
      makeInfo({ code: "1-1-2", availableCurrencies: ["GBP", "USD"], availableUnits: ["therm"] }),
    ],
    ["USD", "GBP"],
    [],
  ],
])("commonChoices: %s", (_name, series, currencies, units) => {
  expect(commonChoices(series, "availableCurrencies")).toEqual(currencies);
  expect(commonChoices(series, "availableUnits")).toEqual(units);
});

test.each<[string, Partial<SeriesInfo>, boolean]>([
  ["energy", { product: "energy_price", dataType: "energy" }, true],
  ["commodity", { product: "commodity_price", dataType: "commodity" }, true],
  ["industry utilities", { product: "industry_economics", dataType: "utilities" }, true],
  ["industry cost index", { product: "industry_economics", dataType: "cost_index" }, false],
  ["industry location factor", { product: "industry_economics", dataType: "location_factor" }, false],
])("takesCurrencyAndUnit: %s", (_name, overrides, expected) => {
  expect(takesCurrencyAndUnit(makeInfo({ code: "1-2-3", ...overrides }))).toBe(expected);
});

const ethylene = makeInfo({ code: "3-1-1", product: "commodity_price", commodity: "Ethylene" });
const index = makeInfo({ code: "4-1-1", product: "industry_economics", commodity: "Cost index" });

test("search hits are grouped by product in the tabs' order, each group keeping the engine's rank", () => {
  const ranked = [index, ethylene, gasFr, gasDe];
  expect(groupByProduct(ranked).map((info) => info.code)).toEqual(["1-1-2", "1-1-1", "3-1-1", "4-1-1"]);
});

test("countByProduct counts every product, zero included", () => {
  expect(countByProduct([gasDe, ethylene, gasFr])).toEqual({
    energy_price: 2,
    commodity_price: 1,
    industry_economics: 0,
  });
});

test("browseOrder puts products in the tabs' order before anything else", () => {
  expect(browseOrder([index, ethylene, gasDe], NO_FILTERS).map((info) => info.product)).toEqual([
    "energy_price",
    "commodity_price",
    "industry_economics",
  ]);
});

test("searchOptions without a product searches every product", () => {
  expect(searchOptions(null, NO_FILTERS)).toEqual({ limit: SEARCH_LIMIT });
});
