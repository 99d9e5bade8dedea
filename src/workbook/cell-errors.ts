// Excel's error values as a range reports them (a string with the code). A cell that
// shows one, or #BUSY! while its data is on the way, has nothing worth freezing.
import type { CellScalar } from "./workbook-host";

const ERROR_CODES: ReadonlySet<string> = new Set([
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#GETTING_DATA",
  "#SPILL!",
  "#CALC!",
  "#FIELD!",
  "#BLOCKED!",
  "#CONNECT!",
  "#BUSY!",
  "#UNKNOWN!",
  "#PYTHON!",
]);

export function isErrorValue(value: CellScalar): boolean {
  return typeof value === "string" && ERROR_CODES.has(value.toUpperCase());
}

/** The first error among a block's values, or null. */
export function firstError(values: readonly (readonly CellScalar[])[]): string | null {
  for (const row of values) for (const value of row) if (isErrorValue(value)) return String(value);
  return null;
}
