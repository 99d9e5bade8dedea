// A1 addresses with their sheet ("Sheet1!B2:C4", "'My sheet'!B2") as Excel reports them,
// enough to tell whether a frozen cell lies in the selection. A selection may also be whole
// columns or rows ("Sheet1!B:D", "Sheet1!2:2"); a frozen range is always cells.

/** An Excel sheet's size (since Excel 2007): what a whole column or row spans. */
export const SHEET_ROWS = 1_048_576;
export const SHEET_COLUMNS = 16_384;

export interface RangeArea {
  sheet: string;
  row: number;
  column: number;
  rowCount: number;
  columnCount: number;
}

/** "'My sheet'!B2" → ["My sheet", "B2"]: the sheet name unquoted, the quote undoubled. */
export function splitAddress(address: string): [string, string] {
  const bang = address.lastIndexOf("!");
  if (bang < 0) throw new Error(`The address ${address} names no sheet.`);
  const sheet = address.slice(0, bang);
  const unquoted =
    sheet.startsWith("'") && sheet.endsWith("'") ? sheet.slice(1, -1).replaceAll("''", "'") : sheet;
  return [unquoted, address.slice(bang + 1)];
}

function columnIndex(letters: string): number {
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

function parseCell(text: string): { row: number; column: number } {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a cell address like B2.`);
  return { row: Number(match[2]) - 1, column: columnIndex(match[1]!) };
}

/** "B:D" or "2:5" (whole columns or rows, as Excel reports such a selection) → its area, else null. */
function parseLines(sheet: string, cells: string): RangeArea | null {
  const columns = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(cells.trim());
  if (columns) {
    const [from, to] = [columnIndex(columns[1]!), columnIndex(columns[2]!)];
    const column = Math.min(from, to);
    return { sheet, row: 0, column, rowCount: SHEET_ROWS, columnCount: Math.abs(to - from) + 1 };
  }
  const rows = /^\$?(\d{1,7}):\$?(\d{1,7})$/.exec(cells.trim());
  if (rows) {
    const [from, to] = [Number(rows[1]) - 1, Number(rows[2]) - 1];
    const row = Math.min(from, to);
    return { sheet, row, column: 0, rowCount: Math.abs(to - from) + 1, columnCount: SHEET_COLUMNS };
  }
  return null;
}

export function parseArea(address: string): RangeArea {
  const [sheet, cells] = splitAddress(address);
  const corners = cells.split(":");
  // Excel reads "A1:B2:H30" as the block around every cell named (A1:H30): read as A1:B2, a
  // planted record's range would make Restore clear cells it never compared.
  if (corners.length > 2) throw new Error(`"${cells}" is not one block of cells like B2:C4.`);
  const [first, second] = corners;
  const start = parseCell(first ?? "");
  const end = second === undefined ? start : parseCell(second);
  return {
    sheet,
    row: Math.min(start.row, end.row),
    column: Math.min(start.column, end.column),
    rowCount: Math.abs(end.row - start.row) + 1,
    columnCount: Math.abs(end.column - start.column) + 1,
  };
}

/** "Sheet1!A1:B2,Sheet1!D4" (a selection of several areas) → its areas; commas in quoted sheet names kept. */
export function areasOf(address: string): string[] {
  const areas: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of address) {
    if (char === "'") quoted = !quoted;
    if (char === "," && !quoted) {
      areas.push(current);
      current = "";
    } else current += char;
  }
  areas.push(current);
  return areas.map((area) => area.trim()).filter((area) => area !== "");
}

/** One area of a selection: cells, or whole columns or rows. */
export function parseSelectionArea(address: string): RangeArea {
  const [sheet, cells] = splitAddress(address);
  return parseLines(sheet, cells) ?? parseArea(address);
}

/**
 * A selection's areas (see areasOf), each parsed; throws with the address when one is not an
 * address Excel gives a selection, so a caller never reads "not selected" into it.
 */
export function selectionAreas(selection: string): RangeArea[] {
  try {
    return areasOf(selection).map(parseSelectionArea);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PCD cannot read the selection's address ${selection}: ${reason}`);
  }
}

/** True when `range` shares a cell with any of the selection's areas (see selectionAreas). */
export function touches(range: string, selection: readonly RangeArea[]): boolean {
  const area = parseArea(range);
  return selection.some((part) => areasOverlap(area, part));
}

/** True when the two ranges share a cell. */
export function overlaps(a: string, b: string): boolean {
  return areasOverlap(parseArea(a), parseArea(b));
}

/** True when the two areas share a cell. */
export function areasOverlap(first: RangeArea, second: RangeArea): boolean {
  return (
    first.sheet === second.sheet &&
    first.row < second.row + second.rowCount &&
    second.row < first.row + first.rowCount &&
    first.column < second.column + second.columnCount &&
    second.column < first.column + first.columnCount
  );
}

/** Sheet, then row, then column: the order a person reads a workbook in. */
export function byPosition(a: string, b: string): number {
  const first = parseArea(a);
  const second = parseArea(b);
  if (first.sheet !== second.sheet) return first.sheet < second.sheet ? -1 : 1;
  return first.row - second.row || first.column - second.column;
}

function columnName(column: number): string {
  let name = "";
  for (let rest = column + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

/** The address of the cell `rows` down and `columns` right of a range's top-left, sheet as written. */
export function cellAt(range: string, rows: number, columns: number): string {
  const area = parseArea(range);
  const sheet = range.slice(0, range.lastIndexOf("!"));
  return `${sheet}!${columnName(area.column + columns)}${area.row + rows + 1}`;
}
