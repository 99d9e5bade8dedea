import { didYouMean } from "../../src/core/did-you-mean";
import { CURRENCIES, UNITS } from "../../src/core/reference";

test.each<[string, string, readonly string[], string | null]>([
  ["a letter missing", "t", ["mt", "kg"], "mt"],
  ["a letter too many", "Mwhr", ["MMBtu", "MWh"], "MWh"],
  ["case and a letter", "kwhh", ["MWh", "kWh"], "kWh"],
  ["the start of a full name", "megawatt", ["MMBtu", "MWh"], "MWh"],
  ["a full name with a typo", "metric tonne", ["mt", "kg"], "mt"],
  ["nothing near", "tonnage", ["MWh", "GJ"], null],
  ["one letter is not near another", "x", ["l", "g"], null],
  ["an offered name in another case", "mwh", ["MWh"], null],
  ["the first of two as near", "t", ["mt", "st"], "mt"],
])("unit: %s (%s)", (_case, input, offered, expected) => {
  expect(didYouMean(input, offered, UNITS)).toBe(expected);
});

test.each<[string, string, readonly string[], string | null]>([
  ["a letter too many", "EURO", ["USD", "EUR"], "EUR"],
  ["a full name", "euro", ["USD", "EUR"], "EUR"],
  ["a symbol for a letter", "US$", ["USD", "EUR"], "USD"],
  ["nothing near", "CHF", ["USD", "EUR"], null],
])("currency: %s (%s)", (_case, input, offered, expected) => {
  expect(didYouMean(input, offered, CURRENCIES)).toBe(expected);
});
