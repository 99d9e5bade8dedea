import { PcdError } from "../../src/core/errors";
import { withSuggestion } from "../../src/core/option-suggestion";
import { resolveSeriesRequest } from "../../src/core/resolve-request";
import { seriesInfo } from "./support/series-fixtures";

const gas = seriesInfo({
  code: "68520-8-1",
  defaultCurrency: "EUR",
  defaultUnit: "MWh",
  availableCurrencies: ["EUR", "USD", "GBP", "USD cent"],
  availableUnits: ["MWh", "kWh"],
});
const locationFactor = seriesInfo({
  code: "912-5-2",
  product: "industry_economics",
  dataType: "location_factor",
  defaultCurrency: null,
  defaultUnit: null,
  availableCurrencies: [],
  availableUnits: [],
});
const costIndex = seriesInfo({ code: "913-5-2", product: "industry_economics", dataType: "cost_index" });

describe("resolveSeriesRequest accepts", () => {
  test.each([
    ["nothing", null, null, "default", "default"],
    ["blank text", " ", "", "default", "default"],
    ["a short name in any case", "usd", null, "1", "default"],
    ["a short name with odd spacing", " usd   CENT ", null, "2", "default"],
    ["a numeric ID", 9, null, "9", "default"],
    ["an ID as digit text", "9", "4", "9", "4"],
    ["the default spelled out (shares the default's key)", "EUR", "mwh", "default", "default"],
    ["the default as an ID", 3, 7, "default", "default"],
  ] as const)("%s", (_case, currency, unit, currencyPart, unitPart) => {
    const request = resolveSeriesRequest("live", gas, currency, unit);
    expect(request.key).toBe(`live|energy_price|68520-8-1|${currencyPart}|${unitPart}`);
    expect(request.requestKey.id).toBe(request.key);
    expect(request.requestKey.currencyId).toBe(currencyPart === "default" ? null : Number(currencyPart));
    expect(request.requestKey.unitId).toBe(unitPart === "default" ? null : Number(unitPart));
    expect(request.info).toBe(gas);
  });

  test("no options on a location factor", () => {
    expect(resolveSeriesRequest("live", locationFactor, null, null).key).toBe(
      "live|industry_economics|912-5-2|default|default",
    );
  });
});

describe("resolveSeriesRequest rejects", () => {
  test.each([
    [
      "a currency not in the reference table",
      gas,
      "XYZ",
      null,
      "Currency 'XYZ' is not offered for 68520-8-1. Available: EUR, USD, GBP, USD cent",
      "currency",
    ],
    [
      "a known currency the series does not offer",
      gas,
      "JPY",
      null,
      "Currency 'JPY' is not offered for 68520-8-1. Available: EUR, USD, GBP, USD cent",
      "currency",
    ],
    [
      "an unknown currency ID",
      gas,
      7,
      null,
      "Currency '7' is not offered for 68520-8-1. Available: EUR, USD, GBP, USD cent",
      "currency",
    ],
    [
      "a unit the series does not offer",
      gas,
      null,
      "GJ",
      "Unit 'GJ' is not offered for 68520-8-1. Available: MWh, kWh",
      "unit",
    ],
    [
      "a near-miss unit",
      gas,
      null,
      "kwhh",
      "Unit 'kwhh' is not offered for 68520-8-1: did you mean kWh? Available: MWh, kWh",
      "unit",
    ],
    [
      "a near-miss currency",
      gas,
      "EURO",
      null,
      "Currency 'EURO' is not offered for 68520-8-1: did you mean EUR? Available: EUR, USD, GBP, USD cent",
      "currency",
    ],
    [
      "a currency on a location factor",
      locationFactor,
      "EUR",
      null,
      "Currency does not apply to location factors (912-5-2): leave it empty",
      "currency",
    ],
    [
      "a unit on a cost index",
      costIndex,
      null,
      "MWh",
      "Unit does not apply to cost indexes (913-5-2): leave it empty",
      "unit",
    ],
  ] as const)("%s", (_case, info, currency, unit, message, argument) => {
    let caught: unknown;
    try {
      resolveSeriesRequest("live", info, currency, unit);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PcdError);
    // What a cell shows: the engine adds the suggestion on the way out (option-suggestion.ts).
    const error = withSuggestion(caught as PcdError);
    expect(error.kind).toBe("input");
    expect(error.message).toBe(message);
    expect(error.details.argument).toBe(argument);
  });

  test("lists the allowed currencies in the details", () => {
    expect(() => resolveSeriesRequest("live", gas, "CNY", null)).toThrow(
      expect.objectContaining({
        details: { argument: "currency", allowed: ["EUR", "USD", "GBP", "USD cent"] },
      }),
    );
  });
});

describe("resolveSeriesRequest keeps its message readable in Excel (255 characters)", () => {
  test.each([
    ["a 10,000-character currency", "x".repeat(10_000), null, "currency"],
    ["a 10,000-character unit", null, "y".repeat(10_000), "unit"],
  ] as const)(
    "%s: the message is short and still names the cause and the choices",
    (_case, currency, unit, argument) => {
      let caught: unknown;
      try {
        resolveSeriesRequest("live", gas, currency, unit);
      } catch (error) {
        caught = error;
      }
      const error = caught as PcdError;
      expect(error.kind).toBe("input");
      expect(error.details.argument).toBe(argument);
      expect(error.message.length).toBeLessThanOrEqual(255);
      expect(error.message).toMatch(/…' is not offered for 68520-8-1\. Available: /);
    },
  );
});
