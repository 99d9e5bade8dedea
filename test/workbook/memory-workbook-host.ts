// An in-memory WorkbookHost for the freeze, restore and report tests: sheets of cells
// (a formula's block of values spills from its anchor), a selection and document
// settings, with every write recorded. Sheets can be protected (their cells refuse writes) and
// the workbook's structure too (no sheet can be added), as in Excel.
import { cellAt, overlaps, parseArea, splitAddress } from "../../src/workbook/range-address";
import type {
  CellScalar,
  FormulaCell,
  FreezeScope,
  RangeContent,
  WorkbookHost,
} from "../../src/workbook/workbook-host";

interface MemoryCell {
  formula: string;
  value: CellScalar;
  numberFormat: string;
  /** For a formula's anchor: the size of the block it shows. */
  rows?: number;
  columns?: number;
}

export class MemoryWorkbookHost implements WorkbookHost {
  readonly cells = new Map<string, MemoryCell>();
  readonly settings = new Map<string, unknown>();
  readonly sheets = new Map<string, CellScalar[][]>();
  selection = "Sheet1!A1";
  activeSheet = "Sheet1";
  settingWrites = 0;

  /** A formula showing `values` (more than one cell: a spilled table). */
  setFormula(address: string, formula: string, values: CellScalar[][], format = "General"): void {
    values.forEach((row, r) =>
      row.forEach((value, c) =>
        this.cells.set(cellAt(address, r, c), { formula: "", value, numberFormat: format }),
      ),
    );
    this.cells.set(address, {
      formula,
      value: values[0]?.[0] ?? "",
      numberFormat: format,
      rows: values.length,
      columns: values[0]?.length ?? 1,
    });
  }

  /** A person renames a sheet: its cells move with it (the freeze record does not). */
  renameSheet(from: string, to: string): void {
    for (const [address, cell] of [...this.cells]) {
      const [sheet, cellAddress] = splitAddress(address);
      if (sheet !== from) continue;
      this.cells.delete(address);
      this.cells.set(`${to}!${cellAddress}`, cell);
    }
    if (this.activeSheet === from) this.activeSheet = to;
  }

  /** A person types into a cell. */
  type(address: string, value: CellScalar): void {
    this.cells.set(address, { formula: "", value, numberFormat: "General" });
  }

  cell(address: string): MemoryCell | undefined {
    return this.cells.get(address);
  }

  async formulaCells(scope: FreezeScope): Promise<FormulaCell[]> {
    const inScope = (address: string): boolean =>
      scope === "workbook" ||
      (scope === "sheet" ? parseArea(address).sheet === this.activeSheet : overlaps(address, this.selection));
    return [...this.cells]
      .filter(([address, cell]) => cell.formula.startsWith("=") && inScope(address))
      .map(([address, cell]) => {
        const range =
          (cell.rows ?? 1) * (cell.columns ?? 1) > 1
            ? `${address}:${cellAt(address, (cell.rows ?? 1) - 1, (cell.columns ?? 1) - 1).split("!")[1]}`
            : address;
        const content = this.read(range);
        return {
          address,
          formula: cell.formula,
          range,
          values: content.values,
          numberFormats: content.values.map((row, r) =>
            row.map((_value, c) => this.cells.get(cellAt(range, r, c))?.numberFormat ?? "General"),
          ),
        };
      });
  }

  async selectedAddress(): Promise<string> {
    return this.selection;
  }

  private read(range: string): RangeContent {
    const area = parseArea(range);
    const at = (r: number, c: number): MemoryCell | undefined => this.cells.get(cellAt(range, r, c));
    return {
      formulas: Array.from({ length: area.rowCount }, (_row, r) =>
        Array.from(
          { length: area.columnCount },
          (_column, c) => at(r, c)?.formula || String(at(r, c)?.value ?? ""),
        ),
      ),
      values: Array.from({ length: area.rowCount }, (_row, r) =>
        Array.from({ length: area.columnCount }, (_column, c) => at(r, c)?.value ?? ""),
      ),
    };
  }

  async readRange(address: string): Promise<RangeContent> {
    return this.read(address);
  }

  async hasSheet(name: string): Promise<boolean> {
    return (
      [...this.cells.keys()].some((address) => parseArea(address).sheet === name) ||
      this.sheets.has(name) ||
      name === this.activeSheet
    );
  }

  /** Sheets whose cells refuse every write. */
  readonly protectedSheets = new Set<string>();
  /** The workbook's structure is protected: no sheet can be added. */
  structureProtected = false;

  private checkWritable(address: string): void {
    const { sheet } = parseArea(address);
    if (this.protectedSheets.has(sheet)) throw new Error(`The sheet ${sheet} is protected.`);
  }

  async writeValues(address: string, values: CellScalar[][], numberFormats: string[][]): Promise<void> {
    this.checkWritable(address);
    values.forEach((row, r) =>
      row.forEach((value, c) =>
        this.cells.set(cellAt(address, r, c), {
          formula: "",
          value,
          numberFormat: numberFormats[r]?.[c] ?? "General",
        }),
      ),
    );
  }

  async restoreFormula(range: string, formula: string): Promise<void> {
    this.checkWritable(range);
    const area = parseArea(range);
    for (let r = 0; r < area.rowCount; r += 1)
      for (let c = 0; c < area.columnCount; c += 1) this.cells.delete(cellAt(range, r, c));
    this.cells.set(cellAt(range, 0, 0), { formula, value: "#BUSY!", numberFormat: "General" });
  }

  /** As Excel's: 1,048,576 rows × 16,384 columns unless a test sets a smaller sheet. */
  limits = { rows: 1_048_576, columns: 16_384 };

  async sheetLimits(): Promise<{ rows: number; columns: number }> {
    return this.limits;
  }

  async writeSheet(name: string, rows: CellScalar[][]): Promise<string> {
    if (this.structureProtected && !this.sheets.has(name)) {
      throw new Error("The workbook's structure is protected: no sheet can be added.");
    }
    this.sheets.set(name, rows);
    return `'${name}'!A1`;
  }

  async readSetting(name: string): Promise<unknown> {
    return this.settings.get(name);
  }

  async writeSetting(name: string, value: unknown): Promise<void> {
    this.settingWrites += 1;
    // Office keeps settings as JSON: a copy, never the caller's object.
    this.settings.set(name, JSON.parse(JSON.stringify(value)));
  }
}
