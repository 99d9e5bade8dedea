import { cellName, columnName, parseCell, parseRange, rangeAddress } from "../../src/preview/a1";

test.each<[number, string]>([
  [0, "A"],
  [25, "Z"],
  [26, "AA"],
  [27, "AB"],
  [701, "ZZ"],
  [702, "AAA"],
])("columnName(%d) = %s", (column, name) => {
  expect(columnName(column)).toBe(name);
});

test.each<[string, { row: number; column: number }]>([
  ["A1", { row: 0, column: 0 }],
  ["b2", { row: 1, column: 1 }],
  ["$C$10", { row: 9, column: 2 }],
  ["Sheet1!AA3", { row: 2, column: 26 }],
])("parseCell(%s)", (text, position) => {
  expect(parseCell(text)).toEqual(position);
  expect(cellName(position)).toBe(text.replace(/^.*!/, "").replaceAll("$", "").toUpperCase());
});

test.each(["", "A0", "1A", "A1:B2", "ABCD1", "A-1"])("parseCell refuses %j", (text) => {
  expect(() => parseCell(text)).toThrow(/is not a cell address|has no row 0/);
});

test.each<[string, string]>([
  ["B2", "Sheet1!B2"],
  ["B2:C4", "Sheet1!B2:C4"],
  ["C4:B2", "Sheet1!B2:C4"],
  ["Sheet1!D5:D7", "Sheet1!D5:D7"],
])("parseRange(%s) round-trips to %s", (text, address) => {
  expect(rangeAddress(parseRange(text))).toBe(address);
});
