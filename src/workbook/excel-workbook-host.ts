// The WorkbookHost in Excel, through Excel.run. Requirement sets:
// - ranges, formulas, values, number formats, worksheets: ExcelApi 1.1 to 1.4
//   (getUsedRangeOrNullObject and getItemOrNullObject are 1.4);
// - a spilled table's range: ExcelApi 1.12 (getSpillingToRangeOrNullObject). Without it
//   Freeze cannot tell a table from its anchor, so it is refused (a table frozen as its
//   anchor alone would lose every other cell);
// - date formats of custom function results: ExcelApi 1.16 (valuesAsJson, whose formatted
//   numbers carry their format); before it, the cells' own number formats;
// - document settings: Office.context.document.settings (Common API, Excel 2013 and later).
import { createDocumentSettingsStorage, documentSettings } from "./document-settings-storage";
import { asCellTexts } from "./cell-text";
import { parseArea } from "./range-address";
import type {
  CellScalar,
  FormulaCell,
  FreezeScope,
  RangeContent,
  SheetLimits,
  WorkbookHost,
} from "./workbook-host";
import { rectangular } from "./workbook-host";

function requireExcel(version: string, what: string): void {
  if (typeof Excel === "undefined" || typeof Excel.run !== "function") {
    throw new Error(`${what} needs Excel: open PCD from the PCD tab in Excel (or the preview page).`);
  }
  if (!Office.context?.requirements?.isSetSupported("ExcelApi", version)) {
    throw new Error(
      `${what} needs Excel with ExcelApi ${version} (Microsoft 365, Excel 2021 or later, Excel on the web): this version cannot read spilled tables.`,
    );
  }
}

function settingsStorage() {
  const settings = documentSettings();
  if (!settings)
    throw new Error("This host has no document settings: the freeze record cannot be kept in the workbook.");
  return createDocumentSettingsStorage(settings, "");
}

/**
 * The number format a custom function gave a result (a Double or FormattedNumber cell value
 * with a numberFormat, as valuesAsJson reports it from ExcelApi 1.16), else the cell's own.
 */
function formatOf(json: unknown, own: string): string {
  if (typeof json === "object" && json !== null) {
    const { type, numberFormat } = json as { type?: unknown; numberFormat?: unknown };
    if (
      (type === "FormattedNumber" || type === "Double") &&
      typeof numberFormat === "string" &&
      numberFormat !== ""
    )
      return numberFormat;
  }
  return own;
}

function toScalar(value: unknown): CellScalar {
  return typeof value === "number" || typeof value === "boolean" ? value : String(value ?? "");
}

function cellsOf(address: string): string {
  return address.slice(address.lastIndexOf("!") + 1);
}

export const excelWorkbookHost: WorkbookHost = {
  async formulaCells(scope: FreezeScope): Promise<FormulaCell[]> {
    requireExcel("1.12", "Freeze");
    const withFormats = Office.context.requirements.isSetSupported("ExcelApi", "1.16");
    return Excel.run(async (context) => {
      const areas: Excel.Range[] = [];
      if (scope === "selection") {
        areas.push(context.workbook.getSelectedRange());
      } else {
        const sheets = scope === "sheet" ? [context.workbook.worksheets.getActiveWorksheet()] : undefined;
        const all = context.workbook.worksheets;
        if (!sheets) all.load("items/name");
        await context.sync();
        for (const sheet of sheets ?? all.items) {
          const used = sheet.getUsedRangeOrNullObject();
          areas.push(used);
        }
      }
      for (const area of areas) area.load("formulas,address,isNullObject");
      await context.sync();
      const found: Array<{ cell: Excel.Range; spill: Excel.Range; formula: string }> = [];
      for (const area of areas) {
        if (area.isNullObject) continue;
        area.formulas.forEach((row, r) =>
          row.forEach((formula, c) => {
            if (typeof formula !== "string" || !formula.startsWith("=")) return;
            const cell = area.getCell(r, c);
            const spill = cell.getSpillingToRangeOrNullObject();
            // valuesAsJson (ExcelApi 1.16) is a plain property: the formatted numbers' formats.
            for (const range of [cell, spill]) {
              if (withFormats) range.load("address,values,numberFormat,valuesAsJson");
              else range.load("address,values,numberFormat");
            }
            found.push({ cell, spill, formula });
          }),
        );
      }
      await context.sync();
      return found.map(({ cell, spill, formula }): FormulaCell => {
        const shown = spill.isNullObject ? cell : spill;
        const json = withFormats ? shown.valuesAsJson : undefined;
        return {
          address: cell.address,
          formula,
          range: shown.address,
          values: shown.values.map((row) => row.map(toScalar)),
          numberFormats: shown.numberFormat.map((row, r) =>
            row.map((own, c) => formatOf(json?.[r]?.[c], String(own ?? "General"))),
          ),
        };
      });
    });
  },

  async selectedAddress(): Promise<string> {
    requireExcel("1.1", "Restore");
    return Excel.run(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load("address");
      await context.sync();
      return range.address;
    });
  },

  async readRange(address: string): Promise<RangeContent> {
    return Excel.run(async (context) => {
      const { sheet } = parseArea(address);
      const range = context.workbook.worksheets.getItem(sheet).getRange(cellsOf(address));
      range.load("formulas,values,text");
      await context.sync();
      return {
        formulas: range.formulas.map((row) => row.map((formula) => String(formula ?? ""))),
        values: range.values.map((row) => row.map(toScalar)),
        texts: range.text.map((row) => row.map((text) => String(text ?? ""))),
      };
    });
  },

  async hasSheet(name: string): Promise<boolean> {
    return Excel.run(async (context) => {
      const sheet = context.workbook.worksheets.getItemOrNullObject(name);
      await context.sync();
      return !sheet.isNullObject;
    });
  },

  async writeValues(address: string, values: CellScalar[][], numberFormats: string[][]): Promise<void> {
    await Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem(parseArea(address).sheet).getRange(cellsOf(address));
      // Formats first: a date written into a General cell would show as its serial number.
      range.numberFormat = numberFormats;
      range.values = asCellTexts(values);
      await context.sync();
    });
  },

  async restoreFormula(range: string, formula: string): Promise<void> {
    await Excel.run(async (context) => {
      const area = parseArea(range);
      const target = context.workbook.worksheets.getItem(area.sheet).getRange(cellsOf(range));
      const anchor = target.getCell(0, 0);
      // The formula goes in alone first. A batch is not undone when one of its writes fails,
      // so a formula Excel refuses (a text literal over 255 characters, say) written after the
      // clear would leave the frozen values erased and no formula in their place.
      anchor.formulas = [[formula]];
      await context.sync();
      if (area.rowCount === 1 && area.columnCount === 1) return;
      // The rest of the frozen values are cleared so the table can spill again (else #SPILL!),
      // and the formula Excel just took is written again after the clear.
      target.clear(Excel.ClearApplyTo.contents);
      anchor.formulas = [[formula]];
      await context.sync();
    });
  },

  async sheetLimits(): Promise<SheetLimits> {
    return Excel.run(async (context) => {
      // A worksheet's whole range (getRange without an address) is every cell it can hold.
      const whole = context.workbook.worksheets.getActiveWorksheet().getRange();
      whole.load("rowCount,columnCount");
      await context.sync();
      return { rows: whole.rowCount, columns: whole.columnCount };
    });
  },

  async writeSheet(name: string, rows: CellScalar[][]): Promise<string> {
    return Excel.run(async (context) => {
      const existing = context.workbook.worksheets.getItemOrNullObject(name);
      await context.sync();
      const created = existing.isNullObject;
      const sheet = created ? context.workbook.worksheets.add(name) : existing;
      try {
        sheet.visibility = Excel.SheetVisibility.visible;
        sheet.getRange().clear(Excel.ClearApplyTo.contents);
        const table = rectangular(rows);
        const target = sheet.getRangeByIndexes(0, 0, table.length, table[0]?.length ?? 1);
        target.values = asCellTexts(table);
        target.format.autofitColumns();
        target.load("address");
        await context.sync();
        return target.address;
      } catch (error) {
        // A sheet this call added and could not fill is not left behind half written.
        if (created) {
          sheet.delete();
          await context.sync();
        }
        throw error;
      }
    });
  },

  async readSetting(name: string): Promise<unknown> {
    return settingsStorage().get(name);
  },

  async writeSetting(name: string, value: unknown): Promise<void> {
    await settingsStorage().set(name, value);
  },
};
