import { codesInSeveralKeys, distinctRequestKeys, requestKeyOf } from "../../bench/request-keys";
import type { BenchFormula } from "../../bench/workloads";
import { series } from "./fixtures";

function formula(kind: BenchFormula["kind"], currency: string | null, unit: string | null): BenchFormula {
  return { text: "", kind, code: "1-1-1", product: "energy_price", currency, unit };
}

const eurMwh = series("1-1-1", "energy_price");

describe("requestKeyOf", () => {
  test.each([
    ["defaults omitted", null, null, "energy_price|1-1-1|default|default"],
    ["default currency spelled out", "EUR", null, "energy_price|1-1-1|default|default"],
    ["default currency in lower case", "eur", null, "energy_price|1-1-1|default|default"],
    ["default unit spelled out", null, "MWh", "energy_price|1-1-1|default|default"],
    ["another currency", "USD", null, "energy_price|1-1-1|1|default"],
    ["another currency and unit", "gbp", "GJ", "energy_price|1-1-1|9|31"],
    ["USD cent keeps its space", "USD cent", null, "energy_price|1-1-1|2|default"],
  ])("%s", (_name, currency, unit, expected) => {
    expect(requestKeyOf(formula("VALUE", currency, unit), eurMwh)?.key).toBe(expected);
  });

  test("PCD.INFO needs no data request", () => {
    expect(requestKeyOf(formula("INFO", null, null), eurMwh)).toBeNull();
  });

  test("an option the reference tables do not know is an error naming it", () => {
    expect(() => requestKeyOf(formula("VALUE", "DKK", null), eurMwh)).toThrow("'DKK'");
  });

  test("a series without defaults keeps any option as given", () => {
    const index = series("1-1-1", "industry_economics", { defaultCurrency: null, defaultUnit: null });
    expect(requestKeyOf(formula("VALUE", "USD", null), index)?.key).toBe(
      "industry_economics|1-1-1|1|default",
    );
  });
});

test("distinctRequestKeys merges duplicates and spelled defaults, skips INFO and names unknown codes", () => {
  const byCode = new Map([["1-1-1", eurMwh]]);
  const keys = distinctRequestKeys(
    [
      formula("VALUES", null, null),
      formula("VALUE", "EUR", null),
      formula("VALUE", "USD", null),
      formula("INFO", null, null),
    ],
    byCode,
  );
  expect(keys.map((entry) => entry.key)).toEqual([
    "energy_price|1-1-1|default|default",
    "energy_price|1-1-1|1|default",
  ]);
  expect(() => distinctRequestKeys([{ ...formula("VALUE", null, null), code: "7-7-7" }], byCode)).toThrow(
    "missing from the catalog",
  );
});

test.each([
  ["no keys", [], { codes: 0, mostKeys: 0 }],
  ["one key per code", ["1-1-1", "2-2-2"], { codes: 0, mostKeys: 1 }],
  ["a code in two currencies", ["1-1-1", "1-1-1", "2-2-2"], { codes: 1, mostKeys: 2 }],
  ["two codes, one in three keys", ["1-1-1", "1-1-1", "2-2-2", "2-2-2", "2-2-2"], { codes: 2, mostKeys: 3 }],
])("codesInSeveralKeys: %s", (_name, codes, expected) => {
  const base = requestKeyOf(formula("VALUE", null, null), eurMwh);
  if (base === null) throw new Error("a VALUE cell has a request key");
  const keys = codes.map((code, i) => ({ ...base, key: `${code}|${i}`, code }));
  expect(codesInSeveralKeys(keys)).toEqual(expected);
});
