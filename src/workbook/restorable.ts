// What Restore may write back, checked before anything is written. The freeze record is
// read from the workbook's document settings, which anyone who had the file could edit,
// so Restore writes only what Freeze could have written:
// - a formula Freeze recorded: a PCD formula. For an entry this computer did not seal
//   (record-seal.ts), stricter: one PCD call whose arguments are literals, cell references
//   of this workbook or DATE(…) of those; no other function, no "|" (DDE), no "[" (another
//   workbook or a table);
// - into the range the entry names, on a sheet that exists, anchored at the entry's own
//   address, with stored values of exactly the range's size (the "changed since the freeze"
//   check compares every cell the restore would clear);
// - entries whose ranges overlap are not restored over each other.
import { parsePcdFormula, type PcdArgument } from "./pcd-formula-parse";
import { pcdParameters } from "./pcd-signatures.generated";
import { isPcdFormula } from "./pcd-formula";
import type { FrozenCell } from "./frozen-record";
import { areasOf, parseArea, type RangeArea } from "./range-address";

/**
 * A cell of a sheet: column A to XFD, row 1 to 1,048,576. Anything past those bounds (XYZ1,
 * A0) is no cell but a defined name, which can hold any formula.
 */
const COLUMN = String.raw`(?:[A-Za-z]{1,2}|[A-Wa-w][A-Za-z]{2}|[Xx][A-Ea-e][A-Za-z]|[Xx][Ff][A-Da-d])`;
const ROW = String.raw`(?:[1-9]\d{0,5}|10[0-3]\d{4}|104[0-7]\d{3}|1048[0-4]\d{2}|10485[0-6]\d|104857[0-6])`;
const CELL = String.raw`\$?${COLUMN}\$?${ROW}`;
const SHEET = String.raw`(?:[A-Za-z_][A-Za-z0-9_.]*|'(?:[^'\[\]]|'')+')!`;
const REFERENCE = new RegExp(String.raw`^(?:${SHEET})?${CELL}(?::${CELL})?$`);
const BOOLEAN = /^(?:TRUE|FALSE)$/i;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:E[+-]?\d+)?$/i;
const DATE_CALL = /^DATE\s*\((.*)\)$/is;

/** An argument Freeze could have recorded from a cell PCD's pane or a person wrote. */
function isPlainArgument(argument: PcdArgument): boolean {
  if (argument.kind !== "expression") return true;
  const raw = argument.raw.trim();
  if (BOOLEAN.test(raw) || REFERENCE.test(raw)) return true;
  const date = DATE_CALL.exec(raw);
  if (!date) return false;
  const parts = (date[1] ?? "").split(",").map((part) => part.trim());
  return parts.length === 3 && parts.every((part) => NUMBER.test(part) || REFERENCE.test(part));
}

/** The formula's text outside its text literals (where "|" or "[" would act). */
function outsideLiterals(formula: string): string {
  return formula.replace(/"(?:[^"]|"")*"/g, '""');
}

/** Why a formula from an entry this computer did not seal is not restored, or null when it may be. */
export function strictFormulaProblem(formula: string): string | null {
  const code = outsideLiterals(formula);
  if (code.includes("|")) return "it holds a link to another program (|)";
  if (code.includes("[")) return "it refers to another workbook or a table ([…])";
  const parsed = parsePcdFormula(formula);
  if (parsed === null) return "it is not a single PCD call";
  if (pcdParameters(parsed.name) === undefined) return `PCD has no function ${parsed.name}`;
  if (!parsed.args.every(isPlainArgument)) return "an argument is not a literal, a cell reference or DATE(…)";
  return null;
}

/** Why an entry's formula is not restored, or null when it may be. */
export function formulaProblem(cell: FrozenCell, sealed: boolean): string | null {
  if (!isPcdFormula(cell.formula)) return "its formula is not a PCD formula";
  return sealed ? null : strictFormulaProblem(cell.formula);
}

/** Why an entry's range, anchor or values do not fit together, or null when they do. */
export function shapeProblem(cell: FrozenCell): string | null {
  let area: RangeArea;
  let anchor: RangeArea;
  try {
    if (areasOf(cell.range).length !== 1) return `its range ${cell.range} is not one block`;
    area = parseArea(cell.range);
    anchor = parseArea(cell.address);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (anchor.rowCount !== 1 || anchor.columnCount !== 1) return `its address ${cell.address} is not one cell`;
  if (anchor.sheet !== area.sheet || anchor.row !== area.row || anchor.column !== area.column)
    return `its range ${cell.range} does not start at its cell ${cell.address}`;
  const rows = cell.values.length;
  const sized = (table: readonly (readonly unknown[])[]): boolean =>
    table.length === area.rowCount && table.every((row) => row.length === area.columnCount);
  if (!sized(cell.values))
    return `its stored values (${rows} row${rows === 1 ? "" : "s"}) do not fill its range ${cell.range} (${area.rowCount}×${area.columnCount})`;
  if (!sized(cell.numberFormats)) return `its stored number formats do not fill its range ${cell.range}`;
  return null;
}
