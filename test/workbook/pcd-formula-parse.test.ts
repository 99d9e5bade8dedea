// The PCD formula reader, one row per case: what the pane can edit and what it keeps as typed,
// and the runner's reading of the same grammar (its errors: test/headless/formula.test.ts).
import {
  FormulaSyntaxError,
  parseFormulaValues,
  parsePcdFormula,
  type DateValue,
  type FormulaArgument,
  type PcdArgument,
} from "../../src/workbook/pcd-formula-parse";

const text = (value: string, raw = `"${value.replaceAll('"', '""')}"`): PcdArgument => ({
  kind: "text",
  value,
  raw,
});
const number = (value: number, raw = String(value)): PcdArgument => ({ kind: "number", value, raw });
const empty: PcdArgument = { kind: "empty", raw: "" };
const expression = (raw: string): PcdArgument => ({ kind: "expression", raw });

test.each<[string, string, { name: string; args: PcdArgument[] } | null]>([
  ["one text argument", '=PCD.VALUES("68520-8-1")', { name: "VALUES", args: [text("68520-8-1")] }],
  ["lower-case name", '=pcd.value("1-2-3")', { name: "VALUE", args: [text("1-2-3")] }],
  ["Excel's stored prefix", '=_xldudf_PCD.INFO("1-2-3")', { name: "INFO", args: [text("1-2-3")] }],
  ["no arguments", "=PCD.LIMITS()", { name: "LIMITS", args: [] }],
  ["leading empty argument", '=PCD.LIMITS(,"energy")', { name: "LIMITS", args: [empty, text("energy")] }],
  [
    "empty arguments in the middle",
    '=PCD.VALUES("1-2-3",,,"2024-01")',
    { name: "VALUES", args: [text("1-2-3"), empty, empty, text("2024-01")] },
  ],
  ["trailing empty argument", '=PCD.VALUE("a",)', { name: "VALUE", args: [text("a"), empty] }],
  ["doubled quotes", '=PCD.INFO("say ""hi""")', { name: "INFO", args: [text('say "hi"')] }],
  ["comma and parenthesis inside text", '=PCD.SEARCH("a, (b")', { name: "SEARCH", args: [text("a, (b")] }],
  ["empty text", '=PCD.VALUE("")', { name: "VALUE", args: [text("")] }],
  [
    "numbers",
    '=PCD.VALUES("a",,,,,2,0,1)',
    { name: "VALUES", args: [text("a"), empty, empty, empty, empty, number(2), number(0), number(1)] },
  ],
  [
    "decimal and exponent",
    "=PCD.ESCALATE(1.5E6,-2)",
    { name: "ESCALATE", args: [number(1.5e6, "1.5E6"), number(-2)] },
  ],
  ["cell references", "=PCD.VALUE($A2,B$1)", { name: "VALUE", args: [expression("$A2"), expression("B$1")] }],
  [
    "nested call with commas",
    '=PCD.VALUES("a",,,DATE(2024,1,1),"2024-12")',
    { name: "VALUES", args: [text("a"), empty, empty, expression("DATE(2024,1,1)"), text("2024-12")] },
  ],
  [
    "quoted sheet name with a comma",
    "=PCD.VALUE('Codes, 2024'!A1)",
    { name: "VALUE", args: [expression("'Codes, 2024'!A1")] },
  ],
  ["array constant", '=PCD.INFO({"a","b"})', { name: "INFO", args: [expression('{"a","b"}')] }],
  [
    "arithmetic and text joined",
    '=PCD.ESCALATE(A1*2,"x"&B1)',
    { name: "ESCALATE", args: [expression("A1*2"), expression('"x"&B1')] },
  ],
  [
    "spaces around arguments",
    '= PCD.VALUE ( "a" , 3 )',
    { name: "VALUE", args: [text("a", '"a"'), number(3)] },
  ],
  ["not a formula", '"PCD.VALUE("a")', null],
  ["another function around it", '=ROUND(PCD.VALUE("a"),2)', null],
  ["text after the call", '=PCD.VALUE("a")*2', null],
  ["unclosed quote", '=PCD.VALUE("a)', null],
  ["unclosed parenthesis", '=PCD.VALUE("a"', null],
  ["unbalanced brace", '=PCD.VALUE("a"})', null],
  ["not PCD", "=SUM(A1:A3)", null],
])("%s: %s", (_name, formula, expected) => {
  expect(parsePcdFormula(formula)).toEqual(expected);
});

/** A stand-in for Excel's date serials: yyyymmdd, and no 30 February. */
const yyyymmdd: DateValue = ({ year, month, day }) =>
  month === 2 && day > 29 ? undefined : year * 10000 + month * 100 + day;

/** What the pane reads from a literal argument, as the runner's value. */
function literalValue(argument: PcdArgument): FormulaArgument | "expression" {
  if (argument.kind === "empty") return null;
  return argument.kind === "expression" ? "expression" : argument.value;
}

test.each([
  '=PCD.VALUES("68520-8-1","EUR",,"2024-01",,2,0,1,"Q")',
  '=PCD.SEARCH("say ""gas"", (oil)",,5)',
  '=PCD.ESCALATE(-1.5E6,"1-2-3","2020-01")',
  "=PCD.LIMITS()",
  '=PCD.INFO("1-2-3",)',
])("the pane and the runner read %s alike", (formula) => {
  const typed = parsePcdFormula(formula);
  const values = parseFormulaValues(formula, yyyymmdd);
  if (typed === null || values instanceof FormulaSyntaxError) throw new Error(`unread: ${formula}`);
  expect(values.name).toBe(typed.name);
  expect(values.args).toEqual(typed.args.map(literalValue));
});

test.each<[string, string, { name: string; args: FormulaArgument[] } | RegExp, string | null]>([
  [
    "DATE is a value for the runner, an expression in a cell",
    '=PCD.VALUE("a",DATE(2024,1,31))',
    { name: "VALUE", args: ["a", 20240131] },
    "DATE(2024,1,31)",
  ],
  [
    "a day the date arithmetic refuses",
    '=PCD.VALUE("a",DATE(2024,2,30))',
    /DATE needs a valid year/,
    "DATE(2024,2,30)",
  ],
  ["Excel's stored prefix", '=_xldudf_PCD.INFO("a")', { name: "INFO", args: ["a"] }, null],
  ["a line break between arguments", '=PCD.INFO("a",\n"unit")', { name: "INFO", args: ["a", "unit"] }, null],
  ["a PCD name no function has", '=PCD.PRICE("a")', /column 2: unknown function PCD.PRICE/, null],
  ["a reference", "=PCD.VALUE(A1)", /unsupported argument A1/, "A1"],
])("%s: %s", (_name, formula, runner, expression) => {
  const values = parseFormulaValues(formula, yyyymmdd);
  if (runner instanceof RegExp) {
    expect(values).toBeInstanceOf(FormulaSyntaxError);
    expect((values as FormulaSyntaxError).message).toMatch(runner);
  } else {
    expect(values).toEqual(runner);
  }
  const typed = parsePcdFormula(formula);
  expect(typed).not.toBeNull();
  const expressions = typed?.args.filter((argument) => argument.kind === "expression").map((a) => a.raw);
  expect(expressions).toEqual(expression === null ? [] : [expression]);
});
