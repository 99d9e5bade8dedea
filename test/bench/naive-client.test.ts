import { naiveCall, naiveCodesSegment } from "../../bench/naive-client";
import type { BenchFormula } from "../../bench/workloads";

function formula(
  kind: BenchFormula["kind"],
  currency: string | null = null,
  unit: string | null = null,
): BenchFormula {
  return { text: "", kind, code: "0123-4-5", product: "energy_price", currency, unit };
}

describe("naiveCodesSegment", () => {
  test.each([
    ["no options", null, null, "0123-4-5"],
    ["currency by name, any case", "eur", null, "0123-4-5&c=3"],
    ["unit", null, "MWh", "0123-4-5&u=7"],
    ["both, even the default (a naive client does not normalise)", "USD cent", "t oz", "0123-4-5&c=2&u=18"],
  ])("%s", (_name, currency, unit, expected) => {
    expect(naiveCodesSegment(formula("VALUE", currency, unit))).toBe(expected);
  });
});

describe("naiveCall", () => {
  test.each([
    ["VALUES", "series_hist", "http://h/energy_price/v1/export/series_hist/0123-4-5", 1],
    ["VALUE", "series_hist", "http://h/energy_price/v1/export/series_hist/0123-4-5", 1],
    ["INFO", "series_info", "http://h/energy_price/v1/export/series", 0],
  ] as const)("%s is one %s call", (kind, operation, url, codes) => {
    expect(naiveCall(formula(kind), "http://h")).toEqual({ operation, url, codes });
  });
});
