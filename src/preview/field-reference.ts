// =A1.Latest in the preview: a formula that reads one field of the card (entity value) a
// PCD.SERIES cell holds, as Excel reads a data type's field. A field name that is not one
// word goes in brackets (=A1.[Latest value]). An unknown field is #FIELD!, as in Excel; a
// cell without a card is #VALUE! saying what it holds. The formula is parsed strictly: the
// whole text must be one reference and one field, the cell inside the preview sheet.
import { cellName, parseCell, SHEET_NAME, type CellPosition } from "./a1";
import type { CellResult } from "./cell-evaluator";
import { isEntityCell, type EntityCell, type EntityProperty } from "../functions/entity-cell";

export interface FieldReference {
  /** The referenced cell ("A1"), without the sheet. */
  cell: string;
  position: CellPosition;
  field: string;
}

/** Sheet (optional, plain or quoted), cell (with optional $), then .Field or .[Field name]. */
const FIELD_REFERENCE =
  /^=\s*(?:(?:'([^']+)'|([A-Za-z_][A-Za-z0-9_.]*))!)?(\$?[A-Za-z]{1,3}\$?\d{1,7})\.(?:([A-Za-z_][A-Za-z0-9_]*)|\[([^[\]]+)\])\s*$/;

export type ParsedFieldReference = FieldReference | { error: CellResult & { kind: "error" } } | null;

/**
 * The reference a formula is, an error result when it is one the preview cannot read (another
 * sheet, a cell outside the sheet), or null when the formula is not a field reference at all.
 */
export function parseFieldReference(
  formula: string,
  size: { rows: number; columns: number },
): ParsedFieldReference {
  const match = FIELD_REFERENCE.exec(formula.trim());
  if (!match) return null;
  const sheet = match[1] ?? match[2];
  const field = (match[4] ?? match[5] ?? "").trim();
  if (sheet !== undefined && sheet.toLowerCase() !== SHEET_NAME.toLowerCase()) {
    return refError(`The preview has one sheet, ${SHEET_NAME}: ${sheet}! cannot be read.`);
  }
  const position = parseCell(match[3] ?? "");
  const cell = cellName(position);
  if (position.row >= size.rows || position.column >= size.columns) {
    return refError(`${cell} is outside the preview sheet (${size.rows} rows, ${size.columns} columns).`);
  }
  if (field === "") return { error: { kind: "error", code: "#FIELD!", message: "The field name is empty." } };
  return { cell, position, field };
}

function refError(message: string): { error: CellResult & { kind: "error" } } {
  return { error: { kind: "error", code: "#REF!", message } };
}

/** The card a cell's result holds: PCD.SERIES returns it as a 1×1 table. */
function cardOf(result: CellResult | undefined): EntityCell | null {
  if (result?.kind !== "value") return null;
  const { value } = result;
  if (isEntityCell(value)) return value;
  if (Array.isArray(value) && value.length === 1) {
    const row: unknown = value[0];
    if (Array.isArray(row) && row.length === 1 && isEntityCell(row[0])) return row[0];
  }
  return null;
}

/** What =<cell>.<field> gives, from the referenced cell's current result. */
export function fieldResult(reference: FieldReference, referenced: CellResult | undefined): CellResult {
  if (referenced?.kind === "busy") return referenced;
  if (referenced?.kind === "error") {
    // Excel passes an error on: the card's cell explains it.
    return { kind: "error", code: referenced.code, message: `${reference.cell}: ${referenced.message}` };
  }
  const card = cardOf(referenced);
  if (card === null) {
    const holds = referenced === undefined ? "is empty" : "holds no card";
    return {
      kind: "error",
      code: "#VALUE!",
      message: `${reference.cell} ${holds}: .${reference.field} reads a field of a PCD.SERIES card (=PCD.SERIES("code") in ${reference.cell}).`,
    };
  }
  const wanted = reference.field.toLowerCase();
  const name = Object.keys(card.properties).find((property) => property.toLowerCase() === wanted);
  const property = name === undefined ? undefined : card.properties[name];
  if (property === undefined) {
    return {
      kind: "error",
      code: "#FIELD!",
      message: `The card in ${reference.cell} has no field "${reference.field}". Its fields: ${Object.keys(card.properties).join(", ")}.`,
    };
  }
  return { kind: "value", value: propertyValue(property) };
}

/**
 * A property as a cell holds it: text, numbers and booleans plain, a formatted number with
 * its format (a price shows its unit, a month as a month), a table as rows to spill.
 */
export function propertyValue(property: EntityProperty): unknown {
  if (property.type === "Array") {
    return property.elements.map((row) => row.map((element) => propertyValue(element)));
  }
  if ("numberFormat" in property) return { ...property };
  return property.basicValue;
}
