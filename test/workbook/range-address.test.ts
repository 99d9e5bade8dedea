import {
  areasOf,
  byPosition,
  cellAt,
  overlaps,
  parseArea,
  parseSelectionArea,
  selectionAreas,
  SHEET_COLUMNS,
  SHEET_ROWS,
  splitAddress,
  touches,
} from "../../src/workbook/range-address";

describe("range addresses", () => {
  test.each<[string, [string, string]]>([
    ["Sheet1!B2", ["Sheet1", "B2"]],
    ["'My sheet'!A1", ["My sheet", "A1"]],
    ["'Bob''s data'!C3", ["Bob's data", "C3"]],
  ])("splitAddress(%s)", (address, expected) => {
    expect(splitAddress(address)).toEqual(expected);
  });

  test.each<[string, ReturnType<typeof parseArea>]>([
    ["Sheet1!B2", { sheet: "Sheet1", row: 1, column: 1, rowCount: 1, columnCount: 1 }],
    ["'My sheet'!$C$3:$A$1", { sheet: "My sheet", row: 0, column: 0, rowCount: 3, columnCount: 3 }],
    ["'It''s'!AA10", { sheet: "It's", row: 9, column: 26, rowCount: 1, columnCount: 1 }],
  ])("parseArea(%s)", (address, area) => {
    expect(parseArea(address)).toEqual(area);
  });

  test.each<[string, string, boolean]>([
    ["Sheet1!A1:B3", "Sheet1!B3", true],
    ["Sheet1!A1:B3", "Sheet1!C1:D9", false],
    ["Sheet1!A1:B3", "Other!A1", false],
    ["Sheet1!B2", "Sheet1!A1:C3", true],
  ])("overlaps(%s, %s) → %s", (a, b, expected) => {
    expect(overlaps(a, b)).toBe(expected);
  });

  test.each<[string, ReturnType<typeof parseArea>]>([
    ["Sheet1!B2:C3", { sheet: "Sheet1", row: 1, column: 1, rowCount: 2, columnCount: 2 }],
    ["Sheet1!B:D", { sheet: "Sheet1", row: 0, column: 1, rowCount: SHEET_ROWS, columnCount: 3 }],
    ["'My sheet'!$D:$B", { sheet: "My sheet", row: 0, column: 1, rowCount: SHEET_ROWS, columnCount: 3 }],
    ["Sheet1!2:2", { sheet: "Sheet1", row: 1, column: 0, rowCount: 1, columnCount: SHEET_COLUMNS }],
    ["Sheet1!$9:$4", { sheet: "Sheet1", row: 3, column: 0, rowCount: 6, columnCount: SHEET_COLUMNS }],
  ])("parseSelectionArea(%s)", (address, area) => {
    expect(parseSelectionArea(address)).toEqual(area);
  });

  test.each(["Sheet1!B:D", "Sheet1!2:2"])(
    "a frozen range is cells, never whole lines: parseArea(%s) throws",
    (address) => {
      expect(() => parseArea(address)).toThrow(/is not a cell address like B2/);
    },
  );

  // Excel reads a chain of cells joined by ":" as the block around all of them: parseArea
  // must not read the first two alone, or Restore would clear cells it never compared.
  test.each(["Sheet1!A1:B2:H30", "Sheet1!A1:B2:XFD1048576", "'My sheet'!A1:A1:C3", "Sheet1!A1::B2"])(
    "a frozen range is one block of two corners at most: parseArea(%s) throws",
    (address) => {
      expect(() => parseArea(address)).toThrow(/is not one block of cells like B2:C4/);
    },
  );

  test("a selection of several areas touches a range when any area does", () => {
    expect(areasOf("Sheet1!A1:B2,Sheet1!D4,'a,b'!C1")).toEqual(["Sheet1!A1:B2", "Sheet1!D4", "'a,b'!C1"]);
    expect(touches("Sheet1!D2:E4", selectionAreas("Sheet1!A1:B2,Sheet1!D4"))).toBe(true);
    expect(touches("Sheet1!F1", selectionAreas("Sheet1!A1:B2,Sheet1!D4"))).toBe(false);
    expect(touches("Sheet1!F1", selectionAreas("Sheet1!E:F"))).toBe(true);
    expect(() => selectionAreas("Sheet1!A1,Sheet1!bogus")).toThrow(
      /^PCD cannot read the selection's address Sheet1!A1,Sheet1!bogus: "bogus" is not a cell address like B2\.$/,
    );
  });

  test("cellAt keeps the sheet as written; byPosition reads row by row", () => {
    expect(cellAt("'My sheet'!Y2:Z9", 3, 2)).toBe("'My sheet'!AA5");
    expect(["Sheet1!B2", "Sheet1!C1", "Sheet1!A2"].sort(byPosition)).toEqual([
      "Sheet1!C1",
      "Sheet1!A2",
      "Sheet1!B2",
    ]);
  });
});
