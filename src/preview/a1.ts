// A1 addresses of the preview's one sheet ("Sheet1"): column letters, ranges, and the
// "Sheet1!B2:C4" text Excel reports as a range's address.

export const SHEET_NAME = "Sheet1";

export interface CellPosition {
  row: number;
  column: number;
}

export interface RangeArea extends CellPosition {
  rowCount: number;
  columnCount: number;
}

export function columnName(column: number): string {
  let name = "";
  let rest = column + 1;
  while (rest > 0) {
    const digit = (rest - 1) % 26;
    name = String.fromCharCode(65 + digit) + name;
    rest = Math.floor((rest - 1) / 26);
  }
  return name;
}

export function cellName(position: CellPosition): string {
  return `${columnName(position.column)}${position.row + 1}`;
}

/** "B2" (or "Sheet1!B2") -> {row: 1, column: 1}; throws on anything else. */
export function parseCell(text: string): CellPosition {
  const match = /^(?:[^!]+!)?\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a cell address like B2.`);
  const letters = match[1]!.toUpperCase();
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  const row = Number(match[2]) - 1;
  if (row < 0) throw new Error(`"${text}" has no row 0: rows start at 1.`);
  return { row, column: column - 1 };
}

/** "B2" or "B2:C4" (optionally with the sheet) -> the area it covers. */
export function parseRange(text: string): RangeArea {
  const withoutSheet = text.includes("!") ? text.slice(text.indexOf("!") + 1) : text;
  const [first, second] = withoutSheet.split(":");
  const start = parseCell(first ?? "");
  const end = second === undefined ? start : parseCell(second);
  const row = Math.min(start.row, end.row);
  const column = Math.min(start.column, end.column);
  return {
    row,
    column,
    rowCount: Math.abs(end.row - start.row) + 1,
    columnCount: Math.abs(end.column - start.column) + 1,
  };
}

export function rangeAddress(area: RangeArea): string {
  const start = cellName(area);
  if (area.rowCount === 1 && area.columnCount === 1) return `${SHEET_NAME}!${start}`;
  const end = cellName({ row: area.row + area.rowCount - 1, column: area.column + area.columnCount - 1 });
  return `${SHEET_NAME}!${start}:${end}`;
}
