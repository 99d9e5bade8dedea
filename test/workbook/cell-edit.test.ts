// The Edit cell form: fields filled from a formula, and the formula Update writes.
import { cellEditFromFormula, updatedFormula, type CellEdit } from "../../src/workbook/cell-edit";

function edit(formula: string): CellEdit {
  const result = cellEditFromFormula("Sheet1!B2", formula);
  if (!result) throw new Error(`not editable: ${formula}`);
  return result;
}

/** The form's values with some fields changed, by argument name. */
function valuesWith(form: CellEdit, changes: Record<string, string>): string[] {
  return form.fields.map((field) => changes[field.name] ?? field.value);
}

test.each<[string, string, Record<string, string>]>([
  [
    "VALUES: every option and the frequency",
    '=PCD.VALUES("68520-8-1","EUR","MWh","2023-01","2024-12",2,0,1,"Q")',
    {
      code: "68520-8-1",
      currency: "EUR",
      unit: "MWh",
      start_date: "2023-01",
      end_date: "2024-12",
      headers: "2",
      forecast: "0",
      order: "1",
      frequency: "Q",
    },
  ],
  [
    "VALUE: references shown as typed",
    "=PCD.VALUE($A2,B$1)",
    { code: "$A2", date: "B$1", currency: "", unit: "" },
  ],
  [
    "ESCALATE: the toolkit's arguments",
    '=PCD.ESCALATE(1250000,"1-2-3","2020-01",,"EUR")',
    { amount: "1250000", code: "1-2-3", from_date: "2020-01", to_date: "", currency: "EUR", unit: "" },
  ],
  [
    "AVERAGE with a DATE",
    '=PCD.AVERAGE("1-2-3",DATE(2024,1,1),"2024-12",,,0)',
    {
      code: "1-2-3",
      start_date: "DATE(2024,1,1)",
      end_date: "2024-12",
      currency: "",
      unit: "",
      forecast: "0",
    },
  ],
  [
    "RELOCATE",
    '=PCD.RELOCATE(85000000,"1-1-1","1-1-2")',
    { amount: "85000000", from_code: "1-1-1", to_code: "1-1-2", date: "" },
  ],
  ["INFO with a quote", '=PCD.INFO("a""b","unit")', { code: 'a"b', field: "unit" }],
])("fills the form: %s", (_name, formula, expected) => {
  const form = edit(formula);
  expect(Object.fromEntries(form.fields.map((field) => [field.name, field.value]))).toEqual(expected);
  // Nothing changed: the same formula comes back.
  expect(updatedFormula(form, valuesWith(form, {}))).toBe(formula);
});

test.each<[string, string, Record<string, string>, string]>([
  [
    "a changed currency keeps the DATE in another argument",
    '=PCD.VALUES("1-2-3",,,DATE(2024,1,1))',
    { currency: "USD" },
    '=PCD.VALUES("1-2-3","USD",,DATE(2024,1,1))',
  ],
  ["a quote in new text is doubled", '=PCD.INFO("a")', { field: 'x"y' }, '=PCD.INFO("a","x""y")'],
  [
    "clearing the last arguments drops them",
    '=PCD.VALUE("a","2024-01","EUR")',
    { date: "", currency: "" },
    '=PCD.VALUE("a")',
  ],
  [
    "clearing a middle argument leaves it empty",
    '=PCD.VALUE("a","2024-01","EUR")',
    { date: "" },
    '=PCD.VALUE("a",,"EUR")',
  ],
  ["a number field writes a number", '=PCD.VALUES("a")', { order: "1" }, '=PCD.VALUES("a",,,,,,,1)'],
  ["a field starting with = is a reference", '=PCD.VALUE("a")', { date: "=C$1" }, '=PCD.VALUE("a",C$1)'],
  ["frequency after the options", '=PCD.VALUES("a")', { frequency: "Y" }, '=PCD.VALUES("a",,,,,,,,"Y")'],
  ["a reference replaced by text", "=PCD.VALUE(A1)", { code: "1-2-3" }, '=PCD.VALUE("1-2-3")'],
  [
    "arguments beyond the signature are kept",
    '=PCD.INFO("a","unit","extra")',
    { field: "currency" },
    '=PCD.INFO("a","currency","extra")',
  ],
])("update: %s", (_name, formula, changes, expected) => {
  const form = edit(formula);
  expect(updatedFormula(form, valuesWith(form, changes))).toBe(expected);
});

test.each<[string, string, Record<string, string>, RegExp]>([
  ["text in a number field", '=PCD.VALUES("a")', { headers: "two" }, /headers "two" is not a number/],
  ["a line break in text", '=PCD.INFO("a")', { field: "a\nb" }, /line break or control character/],
  ["a bare =", '=PCD.INFO("a")', { field: "=" }, /only "="/],
])("update refuses %s", (_name, formula, changes, message) => {
  const form = edit(formula);
  expect(() => updatedFormula(form, valuesWith(form, changes))).toThrow(message);
});

test.each([['=PCD.NOSUCH("a")'], ["=SUM(A1)"], ['=PCD.VALUE("a")+1']])("%s is not editable", (formula) => {
  expect(cellEditFromFormula("Sheet1!A1", formula)).toBeNull();
});
