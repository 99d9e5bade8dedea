import {
  FormulaTextError,
  infoFormula,
  quoteText,
  valueFormula,
  valuesFormula,
  type ValuesFormulaOptions,
  type ValueFormulaOptions,
} from "../../src/workbook/formula-text";

describe("valuesFormula", () => {
  test.each<[string, string, ValuesFormulaOptions, string]>([
    ["code only", "68520-8-1", {}, '=PCD.VALUES("68520-8-1")'],
    [
      "currency and unit",
      "68520-8-1",
      { currency: "EUR", unit: "MWh" },
      '=PCD.VALUES("68520-8-1","EUR","MWh")',
    ],
    ["unit only keeps an empty currency", "68520-8-1", { unit: "kWh" }, '=PCD.VALUES("68520-8-1",,"kWh")'],
    ["a currency name with a space", "1-2-3", { currency: "USD cent" }, '=PCD.VALUES("1-2-3","USD cent")'],
    [
      "months and order",
      "1-2-3",
      { startMonth: "2020-01", endMonth: "2021-12", order: 1 },
      '=PCD.VALUES("1-2-3",,,"2020-01","2021-12",,,1)',
    ],
    [
      "default headers, forecast and order are left out",
      "1-2-3",
      { headers: 1, forecast: 1, order: 0 },
      '=PCD.VALUES("1-2-3")',
    ],
    ["no headers, finals only", "1-2-3", { headers: 0, forecast: 0 }, '=PCD.VALUES("1-2-3",,,,,0,0)'],
    ["identifier line", "1-2-3", { headers: 2 }, '=PCD.VALUES("1-2-3",,,,,2)'],
    [
      "blank texts count as omitted",
      " 1-2-3 ",
      { currency: " ", unit: "", startMonth: "" },
      '=PCD.VALUES("1-2-3")',
    ],
    ["a quote in the code is doubled", 'a"b', {}, '=PCD.VALUES("a""b")'],
    ["a quote in the unit is doubled", "1-2-3", { unit: '"' }, '=PCD.VALUES("1-2-3",,"""")'],
    ["formula-like text stays a string", '1",2)+EVIL("', {}, '=PCD.VALUES("1"",2)+EVIL(""")'],
  ])("%s", (_name, code, options, expected) => {
    expect(valuesFormula(code, options)).toBe(expected);
  });
});

describe("valueFormula", () => {
  test.each<[string, string, ValueFormulaOptions, string]>([
    ["latest final", "68520-8-1", {}, '=PCD.VALUE("68520-8-1")'],
    ["a month", "68520-8-1", { month: "2024-03" }, '=PCD.VALUE("68520-8-1","2024-03")'],
    ["currency without a month", "68520-8-1", { currency: "USD" }, '=PCD.VALUE("68520-8-1",,"USD")'],
    [
      "everything",
      "68520-8-1",
      { month: "2024-03", currency: "USD", unit: "kWh" },
      '=PCD.VALUE("68520-8-1","2024-03","USD","kWh")',
    ],
  ])("%s", (_name, code, options, expected) => {
    expect(valueFormula(code, options)).toBe(expected);
  });
});

describe("infoFormula", () => {
  test.each<[string, string, string | null | undefined, string]>([
    ["every field", "68520-8-1", undefined, '=PCD.INFO("68520-8-1")'],
    ["null field", "68520-8-1", null, '=PCD.INFO("68520-8-1")'],
    ["one field", "68520-8-1", "available_units", '=PCD.INFO("68520-8-1","available_units")'],
  ])("%s", (_name, code, field, expected) => {
    expect(infoFormula(code, field)).toBe(expected);
  });
});

describe("refused input", () => {
  test.each<[string, () => string, RegExp]>([
    ["empty code", () => valuesFormula("  "), /code is required/],
    [
      "month that is not YYYY-MM",
      () => valuesFormula("1-2-3", { startMonth: "2020-1" }),
      /start month "2020-1" is not a month/,
    ],
    ["month 13", () => valueFormula("1-2-3", { month: "2020-13" }), /month "2020-13" is not a month/],
    ["line break in a code", () => infoFormula("1-2\n-3"), /code contains a line break/],
    [
      "control character in a field",
      () => infoFormula("1-2-3", "a\u0007"),
      /field contains a line break or control character/,
    ],
    [
      "C1 control character in a field",
      () => infoFormula("1-2-3", "a\u0085b"),
      /field contains a line break or control character/,
    ],
    [
      "C1 control character in a currency",
      () => valuesFormula("1-2-3", { currency: "\u009bEUR" }),
      /currency contains/,
    ],
  ])("%s", (_name, build, message) => {
    expect(build).toThrow(FormulaTextError);
    expect(build).toThrow(message);
  });
});

test.each([
  ["plain", "EUR", '"EUR"'],
  ["empty", "", '""'],
  ["two quotes", '""', '""""""'],
  ["markup is just text", "<b>x</b>", '"<b>x</b>"'],
])("quoteText: %s", (_name, text, expected) => {
  expect(quoteText(text, "text")).toBe(expected);
});
