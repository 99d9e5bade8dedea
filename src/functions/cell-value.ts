// What a PCD cell can hold. Formatted numbers are Excel data types (CustomFunctionsRuntime
// 1.4): a date serial with a date number format, so dates read as dates without the user
// formatting the column. Hosts without that support get the plain serial.
import type { EntityCell } from "./entity-cell";

/** A number Excel displays with its own number format (Excel.DoubleCellValue / FormattedNumberCellValue). */
export interface FormattedNumberCell {
  type: "Double" | "FormattedNumber";
  basicValue: number;
  numberFormat: string;
}

/** EntityCell: PCD.SERIES's card (src/functions/entity-cell.ts), on hosts with ExcelApi 1.16. */
export type CellValue = string | number | boolean | FormattedNumberCell | EntityCell;

/** A spilled result: rows of cells, every row the same length. */
export type CellTable = CellValue[][];

export function isFormattedNumberCell(value: unknown): value is FormattedNumberCell {
  return (
    typeof value === "object" &&
    value !== null &&
    "basicValue" in value &&
    typeof (value as { basicValue: unknown }).basicValue === "number"
  );
}
