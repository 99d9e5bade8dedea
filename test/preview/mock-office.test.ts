// The mock Office host the preview page and the browser tests run the add-in on.
import { parseRange } from "../../src/preview/a1";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { PreviewHost } from "../../src/preview/mock-office";
import { SheetModel } from "../../src/preview/sheet-model";

interface MockRange {
  address: string;
  formulas: unknown[][];
  load(properties: string): MockRange;
  getCell(row: number, column: number): MockRange;
  getResizedRange(rows: number, columns: number): MockRange;
}
interface MockContext {
  workbook: {
    getSelectedRange(): MockRange;
    worksheets: { getActiveWorksheet(): { getRange(address: string): MockRange } };
    application: { calculate(): void };
  };
  sync(): Promise<void>;
}
interface MockGlobals {
  Office: {
    onReady(callback?: (info: { host: string }) => void): Promise<{ host: string }>;
    context: { requirements: { isSetSupported(name: string, version?: string): boolean } };
    actions: { associate(id: string, action: (event: { completed(): void }) => unknown): void };
  };
  Excel: { run<T>(batch: (context: MockContext) => Promise<T>): Promise<T> };
  CustomFunctions: {
    associate(id: string | Record<string, unknown>, fn?: unknown): void;
    Error: typeof ShimCustomFunctionsError;
    ErrorCode: Record<string, string>;
  };
}

function install() {
  const sheet = new SheetModel(10, 5);
  let recalculations = 0;
  const host = new PreviewHost(sheet, () => {
    recalculations += 1;
  });
  const scope: Record<string, unknown> = {};
  host.install(scope);
  return { sheet, host, globals: scope as unknown as MockGlobals, recalculations: () => recalculations };
}

test("Office.onReady resolves with Excel as the host, and calls its callback", async () => {
  const { globals } = install();
  const seen: string[] = [];
  await expect(globals.Office.onReady((info) => seen.push(info.host))).resolves.toMatchObject({
    host: "Excel",
  });
  expect(seen).toEqual(["Excel"]);
});

test.each<[string, string | undefined, boolean]>([
  ["CustomFunctionsRuntime", "1.4", true],
  ["CustomFunctionsRuntime", "1.5", false],
  ["ExcelApi", "1.19", true],
  ["SharedRuntime", undefined, true],
  ["WordApi", "1.1", false],
])("isSetSupported(%s, %s) = %s", (name, version, supported) => {
  expect(install().globals.Office.context.requirements.isSetSupported(name, version)).toBe(supported);
});

test("CustomFunctions.associate records functions by upper-case id, one by one or as a map", () => {
  const { globals, host } = install();
  const values = () => undefined;
  const info = () => undefined;
  globals.CustomFunctions.associate("values", values);
  globals.CustomFunctions.associate({ INFO: info });
  expect([...host.record.functions.entries()]).toEqual([
    ["VALUES", values],
    ["INFO", info],
  ]);
  const error = new globals.CustomFunctions.Error(globals.CustomFunctions.ErrorCode.notAvailable!, "why");
  expect(error).toMatchObject({ code: "#N/A", message: "why" });
});

test("writes apply at sync, are recorded, and land in the sheet", async () => {
  const { globals, host, sheet } = install();
  sheet.select(parseRange("B2"));
  const address = await globals.Excel.run(async (context) => {
    const range = context.workbook.getSelectedRange().getResizedRange(1, 1);
    range.formulas = [
      ["=a", "=b"],
      ["=c", "=d"],
    ];
    range.load("address");
    expect(sheet.content(parseRange("B2"))).toBe(""); // not before sync, as in Excel
    await context.sync();
    return range.address;
  });
  expect(address).toBe("Sheet1!B2:C3");
  expect(host.record.writes).toEqual([
    {
      address,
      formulas: [
        ["=a", "=b"],
        ["=c", "=d"],
      ],
    },
  ]);
  expect(sheet.content(parseRange("C3"))).toBe("=d");
});

test.each<[string, (context: MockContext) => unknown, RegExp]>([
  [
    "reading an address that was not loaded",
    (context) => context.workbook.getSelectedRange().address,
    /"address" is not loaded/,
  ],
  [
    "formulas that do not fit the range",
    (context) => {
      context.workbook.worksheets.getActiveWorksheet().getRange("A1:A2").formulas = [["=a"]];
    },
    /are 1×1 but the range Sheet1!A1:A2 is 2×1/,
  ],
  [
    "resizing to nothing",
    (context) => context.workbook.getSelectedRange().getResizedRange(-1, 0),
    /would have no cells/,
  ],
])("Excel.run refuses %s", async (_name, misuse, message) => {
  const { globals } = install();
  await expect(globals.Excel.run(async (context) => misuse(context))).rejects.toThrow(message);
});

test("a recalculation request is recorded and runs the sheet again", async () => {
  const { globals, host, recalculations } = install();
  await globals.Excel.run(async (context) => context.workbook.application.calculate());
  expect(host.record.calculations).toBe(1);
  expect(recalculations()).toBe(1);
});

test("ribbon actions run like Office runs them: done when they call event.completed()", async () => {
  const { globals, host } = install();
  const order: string[] = [];
  globals.Office.actions.associate("refreshAll", async (event) => {
    order.push("started");
    await Promise.resolve();
    order.push("completed");
    event.completed();
  });
  await host.runAction("refreshAll");
  expect(order).toEqual(["started", "completed"]);
  await expect(host.runAction("missing")).rejects.toThrow('No ribbon action "missing" is associated.');
});
