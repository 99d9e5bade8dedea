// The pane's only contact with the workbook: where the selection is, and writing
// formulas into it. The first formula goes into the selection's top-left cell and each
// further one into the row below it (one row per selected series), whatever the size of
// the selection, so inserting never overwrites cells to the right.

export interface InsertResult {
  /** The written range, e.g. "Sheet1!B2:B4". */
  address: string;
  rows: number;
}

/** What the pane needs from the workbook; tests and the fake host provide their own. */
export interface FormulaTarget {
  selectedAddress(): Promise<string>;
  insertFormulas(formulas: readonly string[]): Promise<InsertResult>;
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
};
