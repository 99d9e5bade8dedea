import { parseCell } from "../../src/preview/a1";
import { CellEvaluator, type CustomFunction, type PreviewInvocation } from "../../src/preview/cell-evaluator";
import { parseFieldReference } from "../../src/preview/field-reference";
import { layoutSheet } from "../../src/preview/sheet-layout";
import { SheetModel } from "../../src/preview/sheet-model";
import { buildSeriesCard } from "../../src/functions/series-card-entity";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { PointColumns } from "../../src/core/point-columns";
import { points, seriesInfo } from "../core/support/series-fixtures";

const ROWS = 30;
const COLUMNS = 4;

function card() {
  return buildSeriesCard(
    {
      key: "live|energy_price|10-1-1|default|default",
      info: seriesInfo({ code: "10-1-1", assessment: "Gas day-ahead" }),
      finals: PointColumns.fromPoints(points("2025-10", "2026-10", () => 120.5)),
      forecasts: PointColumns.fromPoints(points("2026-11", "2027-04", () => 125)),
      currency: "EUR",
      unit: "MWh",
      updatedAt: "2026-11-04",
      lastFinal: "2026-10",
      fetchedAt: 0,
      version: 1,
    },
    { scope: "recent", numberType: "Double" },
  );
}

/** A sheet whose PCD.SERIES answers only when the test releases it. */
function setup() {
  const sheet = new SheetModel(ROWS, COLUMNS);
  const pending: PreviewInvocation[] = [];
  function series(
    _code: unknown,
    _currency: unknown,
    _unit: unknown,
    _history: unknown,
    invocation: PreviewInvocation,
  ) {
    pending.push(invocation);
  }
  const functions = new Map<string, CustomFunction>([["SERIES", series as CustomFunction]]);
  const evaluator = new CellEvaluator(sheet, (name) => functions.get(name));
  sheet.subscribe((event) => {
    if (event.type === "cell") evaluator.evaluate(event.address);
  });
  const enter = (address: string, text: string) => sheet.setContent(parseCell(address), text);
  const shown = (address: string) =>
    layoutSheet({
      rows: ROWS,
      columns: COLUMNS,
      filled: sheet.filledCells(),
      result: (a) => evaluator.result(a),
    }).get(address);
  return { evaluator, pending, enter, shown };
}

test.each<[string, string, { cell: string; field: string } | { code: string } | null]>([
  ["a field", "=A1.Latest", { cell: "A1", field: "Latest" }],
  ["absolute and lower case", "=$a$1.latestmonth", { cell: "A1", field: "latestmonth" }],
  ["a bracketed name with a space", "=B2.[Latest value]", { cell: "B2", field: "Latest value" }],
  ["the preview's sheet", "=Sheet1!A1.Code", { cell: "A1", field: "Code" }],
  ["another sheet", "=Other!A1.Code", { code: "#REF!" }],
  ["a cell outside the sheet", "=Z99.Latest", { code: "#REF!" }],
  ["an empty bracket", "=A1.[ ]", { code: "#FIELD!" }],
  ["a function call", '=PCD.SERIES("1-2-3")', null],
  ["something after the field", "=A1.Latest*2", null],
  ["a space before the dot", "=A1 .Latest", null],
  ["no field", "=A1.", null],
  ["a range", "=A1:B2.Latest", null],
  ["a nested bracket", "=A1.[a[b]]", null],
])("parseFieldReference: %s", (_name, formula, expected) => {
  const parsed = parseFieldReference(formula, { rows: ROWS, columns: COLUMNS });
  if (expected === null) expect(parsed).toBeNull();
  else if ("code" in expected)
    expect(parsed).toMatchObject({ error: { kind: "error", code: expected.code } });
  else expect(parsed).toMatchObject(expected);
});

test.each<[string, string, string]>([
  ["the latest value with its unit, as the card shows it", "=A1.Latest", "120.5 EUR/MWh"],
  ["a month field as a month", "=A1.LatestMonth", "2026-10"],
  ["a text field", "=A1.Code", "10-1-1"],
  ["any case, like Excel", "=a1.unit", "MWh"],
  ["a bracketed name", "=A1.[Currency]", "EUR"],
  ["the date of the last update", "=A1.LastUpdated", "2026-11-04"],
])("a card's field: %s", (_name, formula, text) => {
  const { pending, enter, shown } = setup();
  enter("A1", '=PCD.SERIES("10-1-1")');
  pending[0]!.setResult([[card()]]);
  enter("B1", formula);
  expect(shown("B1")).toMatchObject({ text, error: null });
});

test("=A1.Values spills the card's table of values", () => {
  const { pending, enter, shown } = setup();
  enter("A1", '=PCD.SERIES("10-1-1")');
  pending[0]!.setResult([[card()]]);
  enter("B2", "=A1.Values");
  expect(["B2", "C2", "D2", "B3", "C3", "D3"].map((address) => shown(address)?.text)).toEqual([
    "Date",
    "Value (EUR/MWh)",
    "Status",
    "2025-10-01",
    "120.5",
    "final",
  ]);
});

test.each<[string, string, string, RegExp]>([
  [
    "an unknown field is #FIELD!, naming the card's fields",
    "=A1.Price",
    "#FIELD!",
    /no field "Price"\. Its fields: Code, .*Latest/,
  ],
  ["an empty cell", "=C3.Latest", "#VALUE!", /^C3 is empty: \.Latest reads a field of a PCD\.SERIES card/],
  ["a typed number", "=A2.Latest", "#VALUE!", /^A2 holds no card/],
  ["itself", "=B1.Latest", "#REF!", /B1 cannot read a field of itself/],
])("not a card's field: %s", (_name, formula, code, message) => {
  const { pending, enter, shown } = setup();
  enter("A1", '=PCD.SERIES("10-1-1")');
  pending[0]!.setResult([[card()]]);
  enter("A2", "42");
  enter("B1", formula);
  expect(shown("B1")).toMatchObject({ text: code, error: { code } });
  expect(shown("B1")?.error?.message).toMatch(message);
});

test("the field follows its card: busy, then the value, then the card's error, then the card again", () => {
  const { evaluator, pending, enter } = setup();
  enter("A1", '=PCD.SERIES("10-1-1")');
  enter("B1", "=A1.Latest");
  expect(evaluator.result("B1")).toEqual({ kind: "busy" });
  pending[0]!.setResult([[card()]]);
  expect(evaluator.result("B1")).toMatchObject({ kind: "value", value: { basicValue: 120.5 } });
  pending[0]!.setResult(new ShimCustomFunctionsError("#N/A", "Not signed in"));
  expect(evaluator.result("B1")).toEqual({ kind: "error", code: "#N/A", message: "A1: Not signed in" });
  enter("A1", "");
  expect(evaluator.result("B1")).toMatchObject({ kind: "error", code: "#VALUE!" });
  enter("A1", '=PCD.SERIES("10-1-1")');
  pending[1]!.setResult([[card()]]);
  expect(evaluator.result("B1")).toMatchObject({ kind: "value", value: { basicValue: 120.5 } });
  // B1 no longer reads A1 once it holds something else.
  enter("B1", "7");
  pending[1]!.setResult(new ShimCustomFunctionsError("#N/A", "Not signed in"));
  expect(evaluator.result("B1")).toEqual({ kind: "value", value: 7 });
});

test("two cells reading each other's fields settle on an error instead of looping", () => {
  const { evaluator, enter } = setup();
  enter("A1", "=B1.Latest");
  enter("B1", "=A1.Latest");
  expect(evaluator.result("A1")).toMatchObject({ kind: "error" });
  expect(evaluator.result("B1")).toMatchObject({ kind: "error" });
});
