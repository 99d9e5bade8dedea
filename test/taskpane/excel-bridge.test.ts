// The bridge against the preview's mock Excel (the same object model calls Excel gets).
import { excelFormulaTarget } from "../../src/taskpane/excel-bridge";
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
  await expect(excelFormulaTarget.insertFormulas(formulas)).resolves.toEqual({
    address,
    rows: formulas.length,
  });
  expect(host.record.writes).toEqual([{ address, formulas: formulas.map((formula) => [formula]) }]);
  expect(cells.map((cell) => sheet.content(parseRange(cell)))).toEqual(formulas);
  expect(sheet.content(parseRange("E2"))).toBe("");
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
      return excelFormulaTarget.insertFormulas(["=a", "=b"]);
    },
    /outside the preview sheet/,
  ],
])("%s", async (_name, run, message) => {
  await expect(run()).rejects.toThrow(message);
  expect(host.record.writes.length).toBeLessThanOrEqual(1);
  expect(sheet.content(parseRange("A1"))).toBe("");
});

test("outside Excel the bridge says that inserting needs Excel", async () => {
  delete scope["Excel"];
  await expect(excelFormulaTarget.insertFormulas(["=a"])).rejects.toThrow(/Inserting formulas needs Excel/);
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
  await excelFormulaTarget.writeFormula("Sheet1!B3", '=PCD.VALUE("1-2-3","2024-01")');
  expect(sheet.content(parseRange("B3"))).toBe('=PCD.VALUE("1-2-3","2024-01")');
  expect(sheet.content(parseRange("A1"))).toBe("");
});

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
