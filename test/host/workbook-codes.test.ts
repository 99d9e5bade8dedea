// The codes a workbook's cells name, read through the preview's mock Office (the same
// Excel.run calls as in Excel).
import { CellEvaluator } from "../../src/preview/cell-evaluator";
import { PreviewHost } from "../../src/preview/mock-office";
import { SheetModel } from "../../src/preview/sheet-model";
import { codesOfCell, readWorkbookCodes, reusedFor } from "../../src/host/workbook-codes";

const scope = globalThis as unknown as Record<string, unknown>;

afterEach(() => {
  for (const name of ["Office", "Excel", "CustomFunctions", "OfficeRuntime"]) delete scope[name];
});

test.each<[string, unknown, string[]]>([
  ["a PCD formula's code", '=PCD.VALUES("68520-8-1","EUR")', ["68520-8-1"]],
  ["both codes of RELOCATE", '=PCD.RELOCATE(1,"1-2-3","4-5-6")', ["1-2-3", "4-5-6"]],
  ["a code inside a larger formula", '=ROUND(PCD.VALUE("69138-1-13"),2)', ["69138-1-13"]],
  ["a cell holding a code a formula reads", "68520-8-1", ["68520-8-1"]],
  ["a formula that is not PCD's", '=CONCAT("1-2-3")', []],
  ["a PCD call as Excel shows it without the add-in", '=_xldudf_PCD.VALUE("64643-1-12")', ["64643-1-12"]],
  ["PCD. only inside a text literal", '=CONCAT("PCD.VALUE(","1-2-3")', []],
  ["text that is no code", "Natural gas", []],
  ["a date-like literal", '=PCD.VALUE("1-2-3","2025-01")', ["1-2-3"]],
  ["a number", 42, []],
])("%s", (_name, content, codes) => {
  const found = new Set<string>();
  codesOfCell(content, found);
  expect([...found]).toEqual(codes);
});

test("every sheet's formulas and typed codes are read", async () => {
  const sheet = new SheetModel(20, 6);
  const host = new PreviewHost(sheet, () => undefined);
  const evaluator = new CellEvaluator(sheet, () => undefined);
  host.attachEvaluation({ layout: () => new Map(), result: (address) => evaluator.result(address) });
  host.install(scope);
  sheet.setContent({ row: 0, column: 0 }, '=PCD.VALUE("1-1-1")');
  sheet.setContent({ row: 4, column: 3 }, "2-2-2");
  host.addSheet("Other");
  host.write(
    { row: 1, column: 1, rowCount: 1, columnCount: 1 },
    ['=PCD.VALUES("3-3-3")'].map((f) => [f]),
    "Other",
  );
  expect([...(await readWorkbookCodes())].sort()).toEqual(["1-1-1", "2-2-2", "3-3-3"]);
});

test("without Excel the read fails (refresh-all then covers what cells held)", async () => {
  await expect(readWorkbookCodes()).rejects.toThrow(/no Excel workbook/);
});

test("a read serves the plans of the next minute; a failed read is not kept", async () => {
  let clock = 0;
  let reads = 0;
  let fail = false;
  const read = reusedFor(
    async () => {
      reads += 1;
      if (fail) throw new Error("busy");
      return new Set([`${reads}-1-1`]);
    },
    60_000,
    () => clock,
  );
  expect([...(await read())]).toEqual(["1-1-1"]);
  clock += 59_999;
  expect([...(await read())]).toEqual(["1-1-1"]);
  clock += 1;
  fail = true;
  await expect(read()).rejects.toThrow("busy");
  fail = false;
  expect([...(await read())]).toEqual(["3-1-1"]);
  expect(reads).toBe(3);
});
