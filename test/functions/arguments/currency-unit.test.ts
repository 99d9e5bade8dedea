import { parseCurrencyOrUnit } from "../../../src/functions/arguments/currency-unit";

test.each([
  [null, "currency", null],
  ["", "currency", null],
  ["  ", "unit", null],
  ["eur", "currency", "eur"],
  [" USD cent ", "currency", "USD cent"],
  [3, "currency", 3],
  ["MWh", "unit", "MWh"],
  [7, "unit", 7],
] as const)("%j as %s is %j (the engine checks the series offers it)", (input, argument, expected) => {
  expect(parseCurrencyOrUnit(input, argument)).toBe(expected);
});

test.each([
  [
    2.5,
    "currency",
    /currency 2\.5 is not an ID: use a short name or ID the series offers, e\.g\. USD \(1\), USD cent \(2\), EUR \(3\)/,
  ],
  [0, "unit", /unit 0 is not an ID: .*mt \(1\)/],
  [true, "currency", /currency arrived as TRUE/],
  [999, "currency", /currency 999 is not an ID/],
  [8, "unit", /unit 8 is not an ID/],
  ["MWh", "currency", /^The currency "MWh" looks like a unit: it goes in the unit argument\.$/],
  [" usd ", "unit", /^The unit "usd" looks like a currency: it goes in the currency argument\.$/],
  ["CHF", "unit", /^The unit "CHF" looks like a currency: it goes in the currency argument\.$/],
] as const)("%j as %s is rejected", (input, argument, message) => {
  expect(() => parseCurrencyOrUnit(input, argument)).toThrow(
    expect.objectContaining({
      kind: "input",
      message: expect.stringMatching(message),
      details: expect.objectContaining({ argument }),
    }),
  );
});
