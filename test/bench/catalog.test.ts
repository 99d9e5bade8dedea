import { dataTypeOf, parseSeriesInfo } from "../../bench/catalog";

describe("dataTypeOf", () => {
  test.each([
    ["energy_price", "Electricity", "Electricity, baseload, Germany", "energy"],
    ["commodity_price", "Ammonia", "Ammonia, spot price, CFR Asia", "commodity"],
    ["industry_economics", "Electricity", "Electricity, industrial supply, Germany", "utilities"],
    ["industry_economics", "Location Factor", "Location factor, Germany vs United States", "location_factor"],
    [
      "industry_economics",
      "Plant Construction Cost Index",
      "Plant Construction Cost Index, Germany, Equipment",
      "cost_index",
    ],
  ] as const)("%s %s", (product, commodity, assessment, expected) => {
    expect(dataTypeOf(product, commodity, assessment)).toBe(expected);
  });
});

describe("parseSeriesInfo", () => {
  const record = {
    code: "0123-4-5",
    commodity: "Electricity",
    assessment: "Electricity, industrial supply, Germany",
    coverage: "Germany",
    default_currency: "EUR",
    default_unit: "MWh",
    available_currencies: "USD,EUR,GBP",
    available_units: "MWh,kWh",
    last_available_final: "2026-10-01",
    updated_at: "2026-11-04",
    series_hist_changed: "True",
  };

  test("reads the fields the bounds need, booleans as JSON or text", () => {
    expect(parseSeriesInfo("industry_economics", record)).toEqual({
      code: "0123-4-5",
      product: "industry_economics",
      dataType: "utilities",
      coverage: "Germany",
      defaultCurrency: "EUR",
      defaultUnit: "MWh",
      availableCurrencies: ["USD", "EUR", "GBP"],
      availableUnits: ["MWh", "kWh"],
      lastAvailableFinal: "2026-10-01",
      updatedAt: "2026-11-04",
      seriesHistChanged: true,
    });
  });

  test.each([["n/a"], ["-"]])("the marker %s means no default and no options", (marker) => {
    const parsed = parseSeriesInfo("industry_economics", {
      ...record,
      default_currency: marker,
      default_unit: marker,
      available_currencies: marker,
      available_units: marker,
    });
    expect([
      parsed.defaultCurrency,
      parsed.defaultUnit,
      parsed.availableCurrencies,
      parsed.availableUnits,
    ]).toEqual([null, null, [], []]);
  });

  test("a record without a text field is an error naming the code and field", () => {
    expect(() => parseSeriesInfo("energy_price", { ...record, coverage: 7 })).toThrow(
      "0123-4-5: field coverage",
    );
  });
});
