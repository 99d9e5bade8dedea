import { parseRequestKey, requestKey } from "../../src/core/request-key";
import { seriesInfo } from "./support/series-fixtures";

const gas = seriesInfo({ code: "68520-8-1", defaultCurrency: "EUR", defaultUnit: "MWh" });

describe("requestKey", () => {
  test.each([
    ["no options", "live", null, null, "live|energy_price|68520-8-1|default|default"],
    ["the default currency spelled out", "live", 3, null, "live|energy_price|68520-8-1|default|default"],
    ["the default unit spelled out", "live", null, 7, "live|energy_price|68520-8-1|default|default"],
    ["both defaults spelled out", "live", 3, 7, "live|energy_price|68520-8-1|default|default"],
    ["another currency", "live", 1, null, "live|energy_price|68520-8-1|1|default"],
    ["another unit", "live", null, 4, "live|energy_price|68520-8-1|default|4"],
    ["other currency and unit", "live", 9, 31, "live|energy_price|68520-8-1|9|31"],
    ["the sandbox", "sandbox", null, null, "sandbox|energy_price|68520-8-1|default|default"],
  ] as const)("%s", (_case, environment, currencyId, unitId, expected) => {
    expect(requestKey(environment, gas, currencyId, unitId)).toBe(expected);
  });

  test("keeps leading zeros and two-digit groups of codes", () => {
    const info = seriesInfo({ code: "0912-5-12", product: "commodity_price" });
    expect(requestKey("live", info, null, null)).toBe("live|commodity_price|0912-5-12|default|default");
  });

  test("a series without a default currency keeps every ID", () => {
    const info = seriesInfo({ code: "1-2-3", defaultCurrency: null, defaultUnit: null });
    expect(requestKey("live", info, 3, 7)).toBe("live|energy_price|1-2-3|3|7");
  });
});

describe("parseRequestKey", () => {
  test("inverts requestKey", () => {
    expect(parseRequestKey("sandbox|industry_economics|912-5-2|9|default")).toEqual({
      environment: "sandbox",
      product: "industry_economics",
      code: "912-5-2",
      currencyId: 9,
      unitId: null,
    });
  });

  test.each([
    ["too few parts", "live|energy_price|1-2-3|default", /expected 5 parts/],
    ["an unknown environment", "prod|energy_price|1-2-3|default|default", /unknown environment 'prod'/],
    ["an unknown product", "live|gas|1-2-3|default|default", /unknown product 'gas'/],
    ["a non-numeric option", "live|energy_price|1-2-3|EUR|default", /option 'EUR'/],
  ])("rejects %s", (_case, key, message) => {
    expect(() => parseRequestKey(key)).toThrow(message);
  });
});
