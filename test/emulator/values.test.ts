import { generateCatalog, type SeriesDefinition } from "../../src/emulator/catalog";
import { roundValue, ValueModel } from "../../src/emulator/values";

const catalog = generateCatalog(1);

function find(predicate: (series: SeriesDefinition) => boolean): SeriesDefinition {
  const series = catalog.series.find(predicate);
  if (series === undefined) throw new Error("test data");
  return series;
}

const eurMwh = find((s) => s.defaultCurrency === "EUR" && s.defaultUnit === "MWh");
const perTon = find((s) => s.defaultUnit === "mt" && s.defaultCurrency === "USD");
const costIndex = find((s) => s.dataType === "cost_index");

test.each([
  ["MWh -> kWh", eurMwh, "kWh", 1 / 1000],
  ["MWh -> GJ", eurMwh, "GJ", 1 / 3.6],
  ["MWh -> MMBtu", eurMwh, "MMBtu", 1055.05585262 / 3600],
  ["mt -> kg", perTon, "kg", 1 / 1000],
  ["mt -> lb", perTon, "lb", 0.45359237 / 1000],
  ["mt -> st", perTon, "st", 0.90718474],
] as const)("unit conversion %s scales by the unit sizes", (_case, series, unit, factor) => {
  const model = new ValueModel(1);
  expect(model.convert(series, 100, 200, undefined, unit)).toBeCloseTo(100 * factor, 10);
});

test.each(["USD", "GBP", "CNY", "JPY", "USD cent"] as const)("EUR -> %s -> EUR round-trips", (currency) => {
  const model = new ValueModel(1);
  const there = model.convert(eurMwh, 123.45, 150, currency, undefined);
  const usdSeries = { ...eurMwh, defaultCurrency: currency };
  expect(model.convert(usdSeries, there, 150, "EUR", undefined)).toBeCloseTo(123.45, 9);
});

test("USD cent is exactly a hundredth of a dollar", () => {
  const model = new ValueModel(1);
  expect(model.convert(perTon, 5, 10, "USD cent", undefined)).toBeCloseTo(500, 10);
});

test("non-priced series ignore currency and unit", () => {
  const model = new ValueModel(1);
  expect(model.convert(costIndex, 101.5, 10, "JPY", "kWh")).toBe(101.5);
});

test("a month's value does not depend on how far the series was computed before", () => {
  const early = new ValueModel(7);
  const late = new ValueModel(7);
  late.final(perTon, 230, []);
  expect(early.final(perTon, 120, [])).toBe(late.final(perTon, 120, []));
  expect(early.usdPer("EUR", 100)).toBe(late.usdPer("EUR", 100));
});

test("a revision changes months before its cut-off only", () => {
  const model = new ValueModel(1);
  const revisions = [{ beforeMonth: 200 }];
  expect(model.final(perTon, 199, revisions)).not.toBe(model.final(perTon, 199, []));
  expect(model.final(perTon, 200, revisions)).toBe(model.final(perTon, 200, []));
  const ratio = model.final(perTon, 150, revisions) / model.final(perTon, 150, []);
  expect(Math.abs(ratio - 1)).toBeGreaterThanOrEqual(0.005);
  expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(0.031);
});

test("forecasts differ from the later finals, and sandbox values are negative", () => {
  const model = new ValueModel(1);
  expect(model.forecast(perTon, 230, 233, [])).not.toBe(model.final(perTon, 233, []));
  expect(model.sandbox(perTon, 10)).toBeLessThan(0);
});

test.each([
  [123.456789, 123.457],
  [0.000123456789, 0.000123457],
  [98765432.1, 98765400],
])("roundValue(%f) keeps six significant digits", (value, rounded) => {
  expect(roundValue(value)).toBe(rounded);
});
