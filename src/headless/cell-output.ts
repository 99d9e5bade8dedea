// How a cell's latest result appears in the runner's report: values as JSON scalars or 2D
// arrays (formatted numbers as their basicValue), errors as {type, message}. A 1x1 array
// (PCD.INFO of one field, PCD.LIMITS of one dataset) shows in Excel as a single value, and
// is reported as that scalar. Dates stay Excel serials in `value` (what a formula sees);
// a result with dates also carries `iso`, the same value with each date as YYYY-MM-DD.
import { isFormattedNumberCell } from "../functions/cell-value";
import { formatCalendar, serialToCalendar } from "../functions/excel-dates";
import { DATE_NUMBER_FORMAT } from "../functions/host-capabilities";
import { isCustomFunctionsError } from "./custom-functions-shim";

export type OutputScalar = string | number | boolean | null;
export type OutputValue = OutputScalar | OutputScalar[][];

export interface OutputError {
  type: string;
  message: string;
}

export type CellOutput = { value: OutputValue; iso?: OutputValue } | { error: OutputError };

/**
 * Outputs of frozen tables (the functions share one per series version and shape, and never
 * change a row of one: series-memo.ts), made once per table: a report of 10,000 VALUES cells made two copies of every cell's table (serials
 * and ISO dates) at the end of every pass, where a few thousand distinct tables suffice.
 */
const tableOutputs = new WeakMap<unknown[], CellOutput>();

export function toCellOutput(result: unknown): CellOutput {
  if (!Array.isArray(result) || !Object.isFrozen(result)) return convert(result);
  const known = tableOutputs.get(result);
  if (known !== undefined) return known;
  const output = convert(result);
  tableOutputs.set(result, output);
  return output;
}

function convert(result: unknown): CellOutput {
  if (isCustomFunctionsError(result)) return { error: { type: result.code, message: result.message ?? "" } };
  // A table of plain values (no dates) is reported as it is: shared with the cell, not copied.
  if (Array.isArray(result) && isScalarTable(result)) {
    const only = result.length === 1 && result[0]?.length === 1 ? result[0][0] : undefined;
    return { value: only !== undefined ? only : result };
  }
  const rows: unknown[][] = Array.isArray(result)
    ? result.map((row: unknown) => (Array.isArray(row) ? row : [row]))
    : [[result]];
  const single = !Array.isArray(result) || (rows.length === 1 && rows[0]?.length === 1);
  const value = shape(
    rows.map((row) => row.map(toScalar)),
    single,
  );
  if (!rows.some((row) => row.some(isDateCell))) return { value };
  const iso = shape(
    rows.map((row) => row.map((cell) => (isDateCell(cell) ? isoDate(cell.basicValue) : toScalar(cell)))),
    single,
  );
  return { value, iso };
}

function shape(rows: OutputScalar[][], single: boolean): OutputValue {
  return single ? (rows[0]?.[0] ?? null) : rows;
}

/** A number the host shows as a date (how the functions return dates to Excel). */
function isDateCell(cell: unknown): cell is { basicValue: number } {
  return isFormattedNumberCell(cell) && cell.numberFormat === DATE_NUMBER_FORMAT;
}

function isoDate(serial: number): string {
  return formatCalendar(serialToCalendar(serial));
}

/** Tables already seen to hold plain values: shared tables are checked once, not per cell and pass. */
const scalarTables = new WeakSet<unknown[]>();

function isScalarTable(table: unknown[]): table is OutputScalar[][] {
  if (scalarTables.has(table)) return true;
  const scalar = table.every(
    (row) =>
      Array.isArray(row) &&
      row.every((cell) => cell === null || ["string", "number", "boolean"].includes(typeof cell)),
  );
  // Only frozen tables can be remembered: another table could change after the check.
  if (scalar && Object.isFrozen(table)) scalarTables.add(table);
  return scalar;
}

function toScalar(cell: unknown): OutputScalar {
  if (isFormattedNumberCell(cell)) return cell.basicValue;
  if (typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return cell;
  if (cell === null || cell === undefined) return null;
  return JSON.stringify(cell);
}
