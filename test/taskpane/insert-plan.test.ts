// Insert's plan for several series: each table sized from the engine's series before
// anything is written, and the summary naming every range.
import type { SeriesData, SeriesRequest } from "../../src/core/engine-api";
import { PointColumns } from "../../src/core/point-columns";
import { DEFAULT_CHOICES, type FormulaChoices } from "../../src/taskpane/insert-formulas";
import { insertedText, insertHeading, planInsert, type SizingEngine } from "../../src/taskpane/insert-plan";
import { makeInfo } from "../support/series-records";

const monthly = (count: number) =>
  PointColumns.fromPoints(
    Array.from({ length: count }, (_month, index) => ({
      month: `${2000 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`,
      value: index,
    })),
  );

/** An engine whose series have these many final months; "cached" ones are served by peek. */
function sizingEngine(
  finals: Record<string, number>,
  cached: readonly string[] = [],
): SizingEngine & { fetched: string[] } {
  const fetched: string[] = [];
  const data = (code: string): SeriesData =>
    ({
      key: code,
      finals: monthly(finals[code] ?? 0),
      forecasts: PointColumns.EMPTY,
    }) as unknown as SeriesData;
  return {
    fetched,
    resolve: async (code) => {
      if (!(code in finals)) throw new Error(`no series ${code}`);
      return { key: code } as unknown as SeriesRequest;
    },
    peek: (key) => (cached.includes(key) ? data(key) : undefined),
    getSeries: async (request) => {
      fetched.push(request.key);
      return data(request.key);
    },
  };
}

const table: FormulaChoices = { ...DEFAULT_CHOICES, kind: "values" };
const series = ["1-1-1", "2-2-2", "3-3-3"].map((code) => makeInfo({ code }));

test.each<[string, FormulaChoices, Array<[number, number, number, number]>]>([
  // Default headers (1 row) and forecasts (3 columns): 250, 147 and 99 months.
  [
    "tables: each sized, one empty row between",
    table,
    [
      [0, 0, 251, 3],
      [252, 0, 148, 3],
      [401, 0, 100, 3],
    ],
  ],
  [
    // 20 fields of docs/service.md §2.1 a record, 2 columns (field, value).
    "every field of PCD.INFO: a table each, one empty row between",
    { ...table, kind: "info", field: "" },
    [
      [0, 0, 20, 2],
      [21, 0, 20, 2],
      [42, 0, 20, 2],
    ],
  ],
  [
    "one field of PCD.INFO: one row each",
    { ...table, kind: "info", field: "coverage" },
    [
      [0, 0, 1, 1],
      [1, 0, 1, 1],
      [2, 0, 1, 1],
    ],
  ],
  [
    "single values: one row each",
    { ...table, kind: "value" },
    [
      [0, 0, 1, 1],
      [1, 0, 1, 1],
      [2, 0, 1, 1],
    ],
  ],
])("%s", async (_name, choices, placed) => {
  const engine = sizingEngine({ "1-1-1": 250, "2-2-2": 147, "3-3-3": 99 }, ["2-2-2"]);
  const plan = await planInsert(engine, series, choices, "below");
  expect(plan.map((item) => [item.row, item.column, item.rows, item.columns])).toEqual(placed);
  expect(engine.fetched).toEqual(choices.kind === "values" ? ["1-1-1", "3-3-3"] : []);
});

test("a table that cannot be sized stops the insert, naming the series and the cause", async () => {
  const engine = sizingEngine({ "1-1-1": 250, "3-3-3": 99 });
  await expect(planInsert(engine, series, table, "below")).rejects.toThrow(
    /^the size of 2-2-2's table is not known \(no series 2-2-2\)\. Nothing was written/,
  );
});

test("one table that cannot be sized goes into the selected cell", async () => {
  const plan = await planInsert(sizingEngine({}), [makeInfo({ code: "9-9-9" })], table, "below");
  expect(plan.map((item) => [item.row, item.column, item.rows, item.columns])).toEqual([[0, 0, 1, 1]]);
});

test.each<[string, FormulaChoices["kind"], { address: string; rows: number; ranges: string[] }, string]>([
  [
    "several tables name every range",
    "values",
    {
      address: "Sheet1!E1:E402",
      rows: 3,
      ranges: ["Sheet1!E1:G251", "Sheet1!E253:G400", "Sheet1!E402:G501"],
    },
    "Inserted 3 tables: Sheet1!E1:G251, Sheet1!E253:G400, Sheet1!E402:G501.",
  ],
  [
    "one formula",
    "values",
    { address: "Sheet1!A1", rows: 1, ranges: ["Sheet1!A1:C9"] },
    "Inserted 1 formula into Sheet1!A1.",
  ],
  [
    "single values",
    "value",
    { address: "Sheet1!B2:B4", rows: 3, ranges: [] },
    "Inserted 3 formulas into Sheet1!B2:B4.",
  ],
])("insertedText: %s", (_name, kind, written, text) => {
  expect(insertedText({ kind, field: "" }, written)).toBe(text);
});

test.each<[string, string[], FormulaChoices["kind"], "below" | "beside", string]>([
  ["one series", ["1-1-1"], "values", "below", "Insert for 1-1-1"],
  ["values, one row each", ["1-1-1", "2-2-2"], "value", "below", "Insert for 2 series (one row each)"],
  [
    "tables below each other",
    ["1-1-1", "2-2-2", "3-3-3"],
    "values",
    "below",
    "Insert for 3 series (a table each, one empty row apart)",
  ],
  [
    "every field of PCD.INFO is a table each",
    ["1-1-1", "2-2-2"],
    "info",
    "below",
    "Insert for 2 series (a table each, one empty row apart)",
  ],
  [
    "tables side by side",
    ["1-1-1", "2-2-2"],
    "values",
    "beside",
    "Insert for 2 series (a table each, side by side)",
  ],
])("the insert bar's heading: %s", (_name, codes, kind, stack, heading) => {
  expect(insertHeading(codes, { kind, field: "" }, stack)).toBe(heading);
});
