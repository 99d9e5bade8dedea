// Equal texts of a catalog answer are held once (src/core/http/text-pool.ts).
import { parseSeriesInfoList } from "../../../src/core/http/schemas";
import { TextPool } from "../../../src/core/http/text-pool";

/** A Series Info answer's text: every record has its own code, the rest repeats as in a real catalog. */
function catalogText(count: number): string {
  const records = Array.from({ length: count }, (_, index) => ({
    code: `${10000 + index}-1-1`,
    assessment: "Natural gas price, industrial",
    available_currencies: "USD,EUR,GBP,CNY,JPY",
    available_units: "MMBtu,kWh,MWh,MJ,GJ",
    commodity: "Natural gas",
    coverage: "Germany",
    default_currency: "USD",
    default_unit: "MWh",
    has_forecast: "True",
    has_preliminary: "False",
    last_available_final: "2026-09-01",
    location: "Germany",
    product: "Energy Price",
    remark_1: "lag: 0",
    series_hist_changed: "False",
    specification: "Industrial tariff",
    updated_at: "2026-11-04",
  }));
  return JSON.stringify(records);
}

describe("TextPool", () => {
  test("a catalog read back from storage and pooled is equal to what was read", () => {
    const count = 5000;
    const stored = structuredClone(
      parseSeriesInfoList(JSON.parse(catalogText(count)) as unknown, "energy_price"),
    );
    const pool = new TextPool();
    const copy = stored.map((info) => pool.copy(info));
    expect(copy).toEqual(stored);
  });

  test.each<[string, unknown]>([
    ["a text", "USD"],
    ["a list of texts", ["USD", "EUR"]],
    [
      "an object with a __proto__ field",
      JSON.parse('{"__proto__": "x", "a": ["b", 1, null, true]}') as unknown,
    ],
    ["a frozen object", Object.freeze({ a: "b" })],
    ["a typed array", new Float64Array([1, 2])],
    ["numbers, booleans and null", [1, false, null]],
  ])("copy keeps %s as it was", (_case, value) => {
    const copy = new TextPool().copy(value);
    expect(copy).toEqual(value);
    if (typeof value === "object" && value !== null) {
      expect(Object.isFrozen(copy)).toBe(Object.isFrozen(value));
      expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(value));
      expect(Object.keys(copy as object)).toEqual(Object.keys(value));
    }
  });
});
