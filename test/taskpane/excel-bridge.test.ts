// The bridge against the preview's mock Excel (the same object model calls Excel gets).
import { excelFormulaTarget } from "../../src/taskpane/excel-bridge";
import { placeFormulas, type ResultSize, type StackDirection } from "../../src/taskpane/insert-formulas";
import { parseRange } from "../../src/preview/a1";
import { PreviewHost } from "../../src/preview/mock-office";
import { SheetModel } from "../../src/preview/sheet-model";

const scope = globalThis as unknown as Record<string, unknown>;
let sheet: SheetModel;
let host: PreviewHost;

beforeEach(() => {
  sheet = new SheetModel(20, 6);
  host = new PreviewHost(sheet, () => undefined);
  host.install(scope);
});

afterEach(() => {
  for (const name of ["Office", "Excel", "CustomFunctions", "OfficeRuntime"]) delete scope[name];
});

test.each<[string, string, string[], string, string[]]>([
  ["one formula into one cell", "B2", ['=PCD.VALUE("1-2-3")'], "Sheet1!B2", ["B2"]],
  ["rows below the top-left cell", "C3", ["=a", "=b", "=c"], "Sheet1!C3:C5", ["C3", "C4", "C5"]],
  ["a larger selection uses its top-left cell only", "B2:D9", ["=a", "=b"], "Sheet1!B2:B3", ["B2", "B3"]],
])("insertFormulas: %s", async (_name, selection, formulas, address, cells) => {
  sheet.select(parseRange(selection));
  await expect(excelFormulaTarget.insertFormulas(placeFormulas(formulas, [], "below"))).resolves.toEqual({
    address,
    rows: formulas.length,
    ranges: cells.map((cell) => `Sheet1!${cell}`),
  });
  // A column of single values is one write (one round trip, one step to undo).
  expect(host.record.writes).toEqual([{ address, formulas: formulas.map((formula) => [formula]) }]);
  expect(cells.map((cell) => sheet.content(parseRange(cell)))).toEqual(formulas);
  expect(sheet.content(parseRange("E2"))).toBe("");
});

test.each<[string, string, ResultSize[], StackDirection, string[], string]>([
  [
    "three tables below each other, an empty row between their full extents",
    "A1",
    [
      { rows: 5, columns: 3 },
      { rows: 3, columns: 2 },
      { rows: 4, columns: 3 },
    ],
    "below",
    ["Sheet1!A1:C5", "Sheet1!A7:B9", "Sheet1!A11:C14"],
    "Sheet1!A1:A11",
  ],
  [
    "three tables side by side, an empty column between them",
    "A2",
    [
      { rows: 5, columns: 2 },
      { rows: 3, columns: 1 },
      { rows: 4, columns: 1 },
    ],
    "beside",
    ["Sheet1!A2:B6", "Sheet1!D2:D4", "Sheet1!F2:F5"],
    "Sheet1!A2:F2",
  ],
])("insertFormulas: %s", async (_name, selection, sizes, stack, ranges, address) => {
  sheet.select(parseRange(selection));
  const formulas = ["=t1", "=t2", "=t3"];
  await expect(excelFormulaTarget.insertFormulas(placeFormulas(formulas, sizes, stack))).resolves.toEqual({
    address,
    rows: 3,
    ranges,
  });
  expect(ranges.map((range) => sheet.content(parseRange(range.slice(7).split(":")[0] ?? "")))).toEqual(
    formulas,
  );
  expect(sheet.filledCells()).toHaveLength(3);
});

test.each<[string, string[], RegExp]>([
  ["a typed value inside a table's extent", ["B3"], /^Sheet1!B3 is not empty/],
  ["several cells, each named", ["A6", "C9"], /^Sheet1!A6, Sheet1!C9 are not empty/],
])("insertFormulas writes nothing when %s", async (_name, filled, message) => {
  for (const cell of filled) sheet.setContent(parseRange(cell), "typed");
  sheet.select(parseRange("A1"));
  const sizes = [
    { rows: 4, columns: 3 },
    { rows: 4, columns: 3 },
  ];
  await expect(
    excelFormulaTarget.insertFormulas(placeFormulas(["=t1", "=t2"], sizes, "below")),
  ).rejects.toThrow(message);
  expect(host.record.writes).toEqual([]);
  expect(sheet.content(parseRange("A1"))).toBe("");
});

test("selectedAddress reads the selection", async () => {
  sheet.select(parseRange("B4:C5"));
  await expect(excelFormulaTarget.selectedAddress()).resolves.toBe("Sheet1!B4:C5");
});

test.each<[string, () => Promise<unknown>, RegExp]>([
  [
    "nothing to insert",
    () => excelFormulaTarget.insertFormulas([]),
    /Nothing to insert: select at least one series/,
  ],
  [
    "rows beyond the sheet's end fail and write nothing",
    async () => {
      sheet.select(parseRange("A20"));
      return excelFormulaTarget.insertFormulas(placeFormulas(["=a", "=b"], [], "below"));
    },
    /would reach past the sheet's last row or column \(20 rows, 6 columns\)/,
  ],
])("%s", async (_name, run, message) => {
  await expect(run()).rejects.toThrow(message);
  expect(host.record.writes.length).toBeLessThanOrEqual(1);
  expect(sheet.content(parseRange("A1"))).toBe("");
});

test("outside Excel the bridge says that inserting needs Excel", async () => {
  delete scope["Excel"];
  await expect(excelFormulaTarget.insertFormulas(placeFormulas(["=a"], [], "below"))).rejects.toThrow(
    /Inserting formulas needs Excel/,
  );
  await expect(excelFormulaTarget.selectedAddress()).rejects.toThrow(/needs Excel/);
});

test("selectedCell reads the top-left cell's formula; writeFormula writes that cell", async () => {
  sheet.setContent(parseRange("B3"), '=PCD.VALUE("1-2-3")');
  sheet.select(parseRange("B3:C4"));
  await expect(excelFormulaTarget.selectedCell()).resolves.toEqual({
    address: "Sheet1!B3",
    formula: '=PCD.VALUE("1-2-3")',
  });
  sheet.select(parseRange("A1"));
  await excelFormulaTarget.writeFormula("Sheet1!B3", '=PCD.VALUE("1-2-3","2024-01")', '=PCD.VALUE("1-2-3")');
  expect(sheet.content(parseRange("B3"))).toBe('=PCD.VALUE("1-2-3","2024-01")');
  expect(sheet.content(parseRange("A1"))).toBe("");
});

test.each<[string, string, string]>([
  ["a value pasted over it", "42", "Sheet1!B3 holds 42 now"],
  ["emptied", "", "Sheet1!B3 is empty now"],
  ["another formula", '=PCD.VALUE("9-9-9")', 'Sheet1!B3 holds =PCD.VALUE("9-9-9") now'],
])(
  "writeFormula writes nothing into a cell changed since the form read it: %s",
  async (_case, content, said) => {
    sheet.setContent(parseRange("B3"), content);
    await expect(
      excelFormulaTarget.writeFormula("Sheet1!B3", '=PCD.VALUE("1-2-3","2024-01")', '=PCD.VALUE("1-2-3")'),
    ).rejects.toThrow(`${said}, not the formula this form was made from: nothing was written.`);
    expect(sheet.content(parseRange("B3"))).toBe(content);
  },
);

test("onSelectionChanged reports each move until it is stopped", async () => {
  const moves: string[] = [];
  const stop = await excelFormulaTarget.onSelectionChanged(() => moves.push("moved"));
  sheet.select(parseRange("C2"));
  sheet.select(parseRange("D2"));
  await stop();
  sheet.select(parseRange("E2"));
  expect(moves).toEqual(["moved", "moved"]);
});

test("setOpensWithWorkbook sets Office's startup behaviour, and opensWithWorkbook reads it", async () => {
  await expect(excelFormulaTarget.opensWithWorkbook()).resolves.toBe(false);
  await excelFormulaTarget.setOpensWithWorkbook(true);
  expect(host.record.startupBehavior).toBe("Load");
  await expect(excelFormulaTarget.opensWithWorkbook()).resolves.toBe(true);
  await excelFormulaTarget.setOpensWithWorkbook(false);
  expect(host.record.startupBehavior).toBe("None");
});

test("without the shared runtime the startup setting says what is missing", async () => {
  const office = scope["Office"] as { context: { requirements: { isSetSupported: () => boolean } } };
  office.context.requirements.isSetSupported = () => false;
  await expect(excelFormulaTarget.setOpensWithWorkbook(true)).rejects.toThrow(
    /cannot load add-ins when a workbook opens/,
  );
  expect(host.record.startupBehavior).toBe("None");
});
