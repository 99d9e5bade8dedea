import type { CellResult } from "../../src/preview/cell-evaluator";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { buildSeriesCard } from "../../src/functions/series-card-entity";
import { displayScalar, layoutSheet, serialToIsoDate } from "../../src/preview/sheet-layout";
import { points, seriesInfo } from "../core/support/series-fixtures";
import { PointColumns } from "../../src/core/point-columns";

test.each<[number, string]>([
  [39083, "2007-01-01"],
  [45658, "2025-01-01"],
  [1, "1899-12-31"],
])("serialToIsoDate(%d)", (serial, date) => {
  expect(serialToIsoDate(serial)).toBe(date);
});

test.each<[string, unknown, string]>([
  ["empty", null, ""],
  ["text", "<b>x</b>", "<b>x</b>"],
  ["integer", 42, "42"],
  ["decimal", 0.1 + 0.2, "0.3"],
  ["boolean", true, "TRUE"],
  [
    "date as formatted number",
    { type: "FormattedNumber", basicValue: 39083, numberFormat: "yyyy-mm-dd" },
    "2007-01-01",
  ],
  ["date as Double entity", { type: "Double", basicValue: 45658, numberFormat: "yyyy-mm-dd" }, "2025-01-01"],
  ["number entity without a date format", { type: "Double", basicValue: 1.5, numberFormat: "0.00" }, "1.5"],
  ["error inside a table", new ShimCustomFunctionsError("#N/A", "missing"), "#N/A"],
  ["infinity", Infinity, "#NUM!"],
])("displayScalar: %s", (_name, value, text) => {
  expect(displayScalar(value)).toBe(text);
});

function layout(results: Record<string, CellResult>, rows = 6, columns = 4) {
  return layoutSheet({ rows, columns, filled: Object.keys(results), result: (address) => results[address] });
}

test("a table spills from its anchor", () => {
  const shown = layout({
    B2: {
      kind: "value",
      value: [
        ["Date", "Value"],
        [{ type: "Double", basicValue: 39083, numberFormat: "yyyy-mm-dd" }, 7],
      ],
    },
  });
  expect(["B2", "C2", "B3", "C3"].map((address) => shown.get(address)?.text)).toEqual([
    "Date",
    "Value",
    "2007-01-01",
    "7",
  ]);
  expect(shown.get("C3")?.anchor).toBe("B2");
});

test.each<[string, Record<string, CellResult>, RegExp]>([
  [
    "a filled cell in the way",
    { A1: { kind: "value", value: [[1], [2]] }, A2: { kind: "value", value: "typed" } },
    /would overwrite A2/,
  ],
  ["the sheet's edge", { A5: { kind: "value", value: [[1], [2], [3]] } }, /would overwrite the sheet's edge/],
])("#SPILL! when %s", (_name, results, message) => {
  const shown = layout(results);
  const anchor = Object.keys(results)[0]!;
  expect(shown.get(anchor)?.text).toBe("#SPILL!");
  expect(shown.get(anchor)?.error?.message).toMatch(message);
});

test("busy and error cells show Excel's codes, errors keep their message", () => {
  const shown = layout({
    A1: { kind: "busy" },
    B1: { kind: "error", code: "#VALUE!", message: 'currency "XYZ" is not offered' },
  });
  expect(shown.get("A1")).toMatchObject({ text: "#BUSY!", busy: true });
  expect(shown.get("B1")).toMatchObject({
    text: "#VALUE!",
    error: { code: "#VALUE!", message: 'currency "XYZ" is not offered' },
  });
});

test("a PCD.SERIES card fills one cell with its text, and lists its properties as the tooltip", () => {
  const card = buildSeriesCard(
    {
      key: "live|energy_price|10-1-1|default|default",
      info: seriesInfo({ code: "10-1-1", assessment: "Gas day-ahead" }),
      finals: PointColumns.fromPoints(points("2025-10", "2026-10", () => 120)),
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
  const shown = layout({ B2: { kind: "value", value: [[card]] } });
  const cell = shown.get("B2");
  expect(cell?.text).toBe("10-1-1 Gas day-ahead (EUR/MWh)");
  expect(shown.has("C2")).toBe(false);
  expect(cell?.card?.split("\n")).toEqual(
    expect.arrayContaining([
      "Code: 10-1-1",
      "Latest: 120 EUR/MWh",
      "LatestMonth: 2026-10",
      "ForecastHorizon: 2027-04",
      "LastUpdated: 2026-11-04",
      "Values: 19 rows",
    ]),
  );
  expect(displayScalar(card)).toBe("10-1-1 Gas day-ahead (EUR/MWh)");
});
