import { computeArithmeticArguments, evaluate } from "../../src/preview/arithmetic-arguments";

test.each<[string, number | null]>([
  ["68520-8-1", 68511],
  ["1-2-3", -4],
  ["2+3*4", 14],
  ["(2+3)*4", 20],
  ["-5+1", -4],
  ["1/4", 0.25],
  ["1-", null],
  ["(1", null],
  ["1 2", null],
  ["", null],
])("evaluate(%j)", (text, expected) => {
  expect(evaluate(text)).toBe(expected);
});

test.each<[string, string | null]>([
  ["=PCD.VALUES(68520-8-1)", "=PCD.VALUES(68511)"],
  ['=PCD.VALUE(68520-8-1,"2024-01")', '=PCD.VALUE(68511,"2024-01")'],
  ['=PCD.INFO("68520-8-1")', null],
  ['=PCD.SEARCH("a-b,c",5)', null],
  ["=PCD.VALUE(DATE(2024,1,1))", null],
  ["no parenthesis", null],
])("computeArithmeticArguments(%j)", (formula, expected) => {
  expect(computeArithmeticArguments(formula)).toBe(expected);
});
