// The pane's only contact with the workbook: where the selection is, writing formulas
// into it, reading back the formula of the selected cell (to edit it), and whether Excel
// loads PCD when this workbook opens. The first formula goes into the selection's top-left
// cell and each further one into the row below it (one row per selected series), whatever
// the size of the selection, so inserting never overwrites cells to the right.
//
// Requirement sets: ranges and formulas ExcelApi 1.1, the selection event ExcelApi 1.2,
// the startup behaviour SharedRuntime 1.1.
import { splitAddress } from "../workbook/range-address";

export interface InsertResult {
  /** The written range, e.g. "Sheet1!B2:B4". */
  address: string;
  rows: number;
}

/** What the pane needs from the workbook; tests and the fake host provide their own. */
export interface FormulaTarget {
  selectedAddress(): Promise<string>;
  insertFormulas(formulas: readonly string[]): Promise<InsertResult>;
  /** The selection's top-left cell and what it holds ("" when empty, "=..." for a formula). */
  selectedCell(): Promise<SelectedCell>;
  /** Writes one formula into the cell at `address` (as selectedCell reported it). */
  writeFormula(address: string, formula: string): Promise<void>;
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

  async insertFormulas(formulas: readonly string[]): Promise<InsertResult> {
    if (formulas.length === 0) throw new Error("Nothing to insert: select at least one series.");
    requireExcel();
    return Excel.run(async (context) => {
      const target = context.workbook
        .getSelectedRange()
        .getCell(0, 0)
        .getResizedRange(formulas.length - 1, 0);
      target.formulas = formulas.map((formula) => [formula]);
      target.load("address");
      await context.sync();
      return { address: target.address, rows: formulas.length };
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

  async writeFormula(address: string, formula: string): Promise<void> {
    requireExcel();
    const [sheet, cell] = splitAddress(address);
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem(sheet).getRange(cell).formulas = [[formula]];
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
