// How a cell's latest result appears in the runner's report: values as JSON scalars or 2D
// arrays (formatted numbers as their basicValue), errors as {type, message}. A 1x1 array
// (PCD.INFO of one field, PCD.LIMITS of one dataset) shows in Excel as a single value, and
// is reported as that scalar.
import { isFormattedNumberCell } from "../functions/cell-value";
import { isCustomFunctionsError } from "./custom-functions-shim";

export type OutputScalar = string | number | boolean | null;
export type OutputValue = OutputScalar | OutputScalar[][];

export interface OutputError {
  type: string;
  message: string;
}

export type CellOutput = { value: OutputValue } | { error: OutputError };

export function toCellOutput(result: unknown): CellOutput {
  if (isCustomFunctionsError(result)) return { error: { type: result.code, message: result.message ?? "" } };
  if (Array.isArray(result)) {
    // A table of plain values is reported as it is (shared with the cell, not copied).
    const rows = isScalarTable(result)
      ? result
      : result.map((row: unknown) => (Array.isArray(row) ? row.map(toScalar) : [toScalar(row)]));
    const only = rows.length === 1 && rows[0]?.length === 1 ? rows[0][0] : undefined;
    return { value: only !== undefined ? only : rows };
  }
  return { value: toScalar(result) };
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
  if (scalar && Object.isFrozen(table) && table.every((row) => Object.isFrozen(row))) scalarTables.add(table);
  return scalar;
}

function toScalar(cell: unknown): OutputScalar {
  if (isFormattedNumberCell(cell)) return cell.basicValue;
  if (typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return cell;
  if (cell === null || cell === undefined) return null;
  return JSON.stringify(cell);
}
