// What Freeze, Restore and the release report need from the workbook: the cells holding
// formulas (with what they show, spilled tables included), reading and writing ranges,
// a visible sheet to fill, and the workbook's document settings. Implemented with
// Excel.run in Excel (excel-workbook-host.ts) and by the preview page's mock Office, so
// the logic (freeze.ts, restore.ts, release-report.ts) is tested without Excel.

/** A cell's value as the host reports it: errors as their code ("#N/A", "#BUSY!"). */
export type CellScalar = string | number | boolean;

export type FreezeScope = "selection" | "sheet" | "workbook";

export interface FormulaCell {
  /** With its sheet, e.g. "Sheet1!B2" or "'My sheet'!B2". */
  address: string;
  formula: string;
  /**
   * What the formula shows: one cell, or for a spilled table the whole spill range (the
   * anchor top-left) with its values and their number formats (dates stay dates).
   */
  range: string;
  values: CellScalar[][];
  /** Number formats of `values` ("General" where the result has none). */
  numberFormats: string[][];
}

export interface RangeContent {
  formulas: string[][];
  values: CellScalar[][];
  /**
   * What each cell shows, as text in its number format (Excel's range.text), when the host
   * can tell: Restore compares numbers to the precision a person sees.
   */
  texts?: string[][];
}

export interface SheetLimits {
  rows: number;
  columns: number;
}

export interface WorkbookHost {
  /** Every cell of the scope that holds a formula (any formula: the caller picks PCD's). */
  formulaCells(scope: FreezeScope): Promise<FormulaCell[]>;
  /** The selection's address, e.g. "Sheet1!B2:C4". */
  selectedAddress(): Promise<string>;
  readRange(address: string): Promise<RangeContent>;
  /** True when the workbook has a sheet of this name. */
  hasSheet(name: string): Promise<boolean>;
  /**
   * Replaces a range's contents (formulas included) with values in these number formats. Text
   * is written as text (cell-text.ts): a value is never read as a formula.
   */
  writeValues(address: string, values: CellScalar[][], numberFormats: string[][]): Promise<void>;
  /**
   * Empties a range, then writes one formula into its top-left cell (its table spills again).
   * A formula the host refuses leaves the range as it was.
   */
  restoreFormula(range: string, formula: string): Promise<void>;
  /** How many rows and columns a sheet holds here (Excel: 1,048,576 × 16,384). */
  sheetLimits(): Promise<SheetLimits>;
  /**
   * Creates the sheet (visible) or empties it, writes `rows` from A1 (text as text) and returns
   * its address. A sheet it created is removed again when the write fails: no half sheet.
   */
  writeSheet(name: string, rows: CellScalar[][]): Promise<string>;
  /** A document setting (saved in the workbook file); undefined when absent. */
  readSetting(name: string): Promise<unknown>;
  writeSetting(name: string, value: unknown): Promise<void>;
}

/** Rows padded with "" to the widest one: Excel writes only rectangular blocks. */
export function rectangular(rows: readonly (readonly CellScalar[])[]): CellScalar[][] {
  const width = Math.max(1, ...rows.map((row) => row.length));
  return rows.map((row) => [...row, ...Array<CellScalar>(width - row.length).fill("")]);
}
