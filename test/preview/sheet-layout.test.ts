import type { CellResult } from "../../src/preview/cell-evaluator";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { displayScalar, layoutSheet, serialToIsoDate } from "../../src/preview/sheet-layout";

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
