import { optionKindOf } from "../../src/core/option-kind";

test.each<[string, ReturnType<typeof optionKindOf>]>([
  ["EUR", "currency"],
  ["usd", "currency"],
  ["CHF", "currency"],
  [" USD cent ", "currency"],
  ["MWh", "unit"],
  ["mt", "unit"],
  ["t oz", "unit"],
  ["2025-01", null],
  ["3", null],
  ["Germany", null],
  ["", null],
])("%j is %s", (text, kind) => {
  expect(optionKindOf(text)).toBe(kind);
});
