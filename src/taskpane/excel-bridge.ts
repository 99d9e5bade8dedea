// The pane's only contact with the workbook: where the selection is, writing formulas
// into it, reading back the formula of the selected cell (to edit it), and whether Excel
// loads PCD when this workbook opens. Formulas go where insert-formulas.ts placed them,
// from the selection's top-left cell whatever the size of the selection. Every cell their
// results will fill must be empty and on the sheet, else nothing is written: inserting
// never overwrites a cell, and a table never spills onto another.
//
// Requirement sets: ranges and formulas ExcelApi 1.1, the selection event ExcelApi 1.2,
// the startup behaviour SharedRuntime 1.1.
import { cellAt, splitAddress } from "../workbook/range-address";
import type { PlacedFormula } from "./insert-formulas";

export interface InsertResult {
  /** The block from the first formula's cell to the last one's, e.g. "Sheet1!B2:B4". */
  address: string;
  rows: number;
  /** Each formula's result, its full extent: "Sheet1!E1:G251" for a table. */
  ranges: string[];
}

/** What the pane needs from the workbook; tests and the fake host provide their own. */
export interface FormulaTarget {
  selectedAddress(): Promise<string>;
  insertFormulas(placed: readonly PlacedFormula[]): Promise<InsertResult>;
  /** The selection's top-left cell and what it holds ("" when empty, "=..." for a formula). */
  selectedCell(): Promise<SelectedCell>;
  /**
   * Writes one formula into the cell at `address` (as selectedCell reported it), only while the
   * cell still holds `expected` (what the form was made from); otherwise rejects, writing nothing.
   */
  writeFormula(address: string, formula: string, expected: string): Promise<void>;
  /** Calls `listener` whenever the selection moves; resolves to the function that stops it. */
  onSelectionChanged(listener: () => void): Promise<() => Promise<void>>;
  /** Whether Excel loads PCD when this workbook opens. */
  opensWithWorkbook(): Promise<boolean>;
  setOpensWithWorkbook(open: boolean): Promise<void>;
}

export interface SelectedCell {
  /** e.g. "Sheet1!B2" */
  address: string;
  formula: string;
}

function requireStartupBehavior(): void {
  if (
    typeof Office === "undefined" ||
    !Office.context?.requirements?.isSetSupported("SharedRuntime", "1.1") ||
    typeof Office.addin?.setStartupBehavior !== "function"
  ) {
    throw new Error(
      "This version of Excel cannot load add-ins when a workbook opens (it needs Microsoft 365's shared runtime): open PCD from the PCD tab instead.",
    );
  }
}

function requireExcel(): void {
  if (typeof Excel === "undefined" || typeof Excel.run !== "function") {
    throw new Error(
      "Inserting formulas needs Excel: open PCD from the PCD tab in Excel (or the preview page).",
    );
  }
}

/** Single values one per row from the selected cell down: written as one block. */
function isOneColumnOfValues(placed: readonly PlacedFormula[]): boolean {
  return placed.every(
    (item, index) => item.rows === 1 && item.columns === 1 && item.column === 0 && item.row === index,
  );
}

/** The cells of a loaded range that hold something, e.g. ["Sheet1!E3"]. */
function filledCells(range: Excel.Range): string[] {
  return range.formulas.flatMap((row, r) =>
    row.flatMap((content, c) => (String(content ?? "") === "" ? [] : [cellAt(range.address, r, c)])),
  );
}

export const excelFormulaTarget: FormulaTarget = {
  async selectedAddress(): Promise<string> {
    requireExcel();
    return Excel.run(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load("address");
      await context.sync();
      return range.address;
    });
  },

  async insertFormulas(placed: readonly PlacedFormula[]): Promise<InsertResult> {
    if (placed.length === 0) throw new Error("Nothing to insert: select at least one series.");
    requireExcel();
    return Excel.run(async (context) => {
      const anchor = context.workbook.getSelectedRange().getCell(0, 0);
      // The selection is on the active sheet.
      const sheet = context.workbook.worksheets.getActiveWorksheet();
      const whole = sheet.getRange();
      anchor.load("rowIndex,columnIndex");
      whole.load("rowCount,columnCount");
      await context.sync();
      const outside = placed.find(
        (item) =>
          anchor.rowIndex + item.row + item.rows > whole.rowCount ||
          anchor.columnIndex + item.column + item.columns > whole.columnCount,
      );
      if (outside) {
        throw new Error(
          `the ${placed.length === 1 ? "result" : "results"} would reach past the sheet's last row or column (${whole.rowCount} rows, ${whole.columnCount} columns): select a cell higher up or further left.`,
        );
      }
      const extents = placed.map((item) => {
        const extent = sheet.getRangeByIndexes(
          anchor.rowIndex + item.row,
          anchor.columnIndex + item.column,
          item.rows,
          item.columns,
        );
        extent.load("address,formulas");
        return extent;
      });
      await context.sync();
      const filled = extents.flatMap((extent) => filledCells(extent));
      if (filled.length > 0) {
        throw new Error(
          `${filled.slice(0, 5).join(", ")}${filled.length > 5 ? ` and ${filled.length - 5} more` : ""} ${filled.length === 1 ? "is" : "are"} not empty, and the formulas' results would cover ${filled.length === 1 ? "it" : "them"}. Nothing was written: select an empty area${placed.length > 1 ? ", or stack the tables the other way" : ""}.`,
        );
      }
      const last = placed[placed.length - 1];
      const block = anchor.getResizedRange(last?.row ?? 0, last?.column ?? 0);
      if (isOneColumnOfValues(placed)) {
        // One write for a column of single values: one round trip, and one step to undo.
        block.formulas = placed.map((item) => [item.formula]);
      } else {
        placed.forEach((item, index) => {
          const extent = extents[index];
          if (extent) extent.getCell(0, 0).formulas = [[item.formula]];
        });
      }
      block.load("address");
      await context.sync();
      return { address: block.address, rows: placed.length, ranges: extents.map((extent) => extent.address) };
    });
  },

  async selectedCell(): Promise<SelectedCell> {
    requireExcel();
    return Excel.run(async (context) => {
      const cell = context.workbook.getSelectedRange().getCell(0, 0);
      cell.load("address,formulas");
      await context.sync();
      return { address: cell.address, formula: String(cell.formulas[0]?.[0] ?? "") };
    });
  },

  async writeFormula(address: string, formula: string, expected: string): Promise<void> {
    requireExcel();
    const [sheet, cell] = splitAddress(address);
    await Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem(sheet).getRange(cell);
      range.load("formulas");
      await context.sync();
      // A paste or an edit since the form read the cell (the selection did not move).
      const now = String(range.formulas[0]?.[0] ?? "");
      if (now !== expected) throw new Error(changedSinceRead(address, now));
      range.formulas = [[formula]];
      await context.sync();
    });
  },

  async onSelectionChanged(listener: () => void): Promise<() => Promise<void>> {
    requireExcel();
    const registration = await Excel.run(async (context) => {
      const added = context.workbook.onSelectionChanged.add(async () => listener());
      await context.sync();
      return added;
    });
    return () =>
      Excel.run(registration.context, async (context) => {
        registration.remove();
        await context.sync();
      });
  },

  async opensWithWorkbook(): Promise<boolean> {
    requireStartupBehavior();
    return (await Office.addin.getStartupBehavior()) === Office.StartupBehavior.load;
  },

  async setOpensWithWorkbook(open: boolean): Promise<void> {
    requireStartupBehavior();
    await Office.addin.setStartupBehavior(open ? Office.StartupBehavior.load : Office.StartupBehavior.none);
  },
};

/** Why Update cell wrote nothing: the cell holds something else than the form was made from. */
export function changedSinceRead(address: string, now: string): string {
  const held = now === "" ? "is empty now" : `holds ${now.length > 80 ? `${now.slice(0, 80)}…` : now} now`;
  return `${address} ${held}, not the formula this form was made from: nothing was written. Select the cell again to edit what it holds.`;
}
