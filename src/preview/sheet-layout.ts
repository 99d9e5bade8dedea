// What each cell of the preview grid shows: typed values, function results (dates as
// dates, errors as Excel's codes) and tables spilled from their anchor cell, with
// #SPILL! where a table would overwrite something.
import { cellName, parseCell, type CellPosition } from "./a1";
import type { CellResult } from "./cell-evaluator";
import { ShimCustomFunctionsError } from "../headless/custom-functions-shim";
import { isEntityCell, type EntityCell, type EntityProperty } from "../functions/entity-cell";

export interface DisplayCell {
  text: string;
  /** The cell whose formula produced this text (itself unless spilled). */
  anchor: string;
  error: { code: string; message: string } | null;
  busy: boolean;
  /** For a PCD.SERIES card (an entity value): its properties, one "Name: value" per line. */
  card?: string;
}

/** 1899-12-30: Excel's serial 0 in the 1900 date system (serial 39083 = 2007-01-01). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

export function serialToIsoDate(serial: number): string {
  return new Date(EXCEL_EPOCH_MS + Math.round(serial) * DAY_MS).toISOString().slice(0, 10);
}

interface NumberEntity {
  type: string;
  basicValue: number;
  numberFormat?: string;
}

function isNumberEntity(value: unknown): value is NumberEntity {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { basicValue?: unknown }).basicValue === "number" &&
    typeof (value as { type?: unknown }).type === "string"
  );
}

/** A scalar as Excel would draw it (numbers in General format, dates by their format). */
export function displayScalar(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof ShimCustomFunctionsError) return value.code;
  // An entity shows its text, as Excel does (next to a card icon the preview does not draw).
  if (isEntityCell(value)) return value.text;
  if (isNumberEntity(value)) return displayFormatted(value.basicValue, value.numberFormat ?? "");
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "#NUM!";
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  }
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * What the card of an entity would list, as text: Excel opens a card on a click, the
 * preview shows the same properties as the cell's tooltip (a table property by its size).
 */
export function describeCard(entity: EntityCell): string {
  return Object.entries(entity.properties)
    .map(([name, property]) => `${name}: ${describeProperty(property)}`)
    .join("\n");
}

function describeProperty(property: EntityProperty): string {
  if (property.type === "Array") return `${property.elements.length - 1} rows`;
  if (!("numberFormat" in property)) return displayScalar(property.basicValue);
  return displayFormatted(property.basicValue, property.numberFormat);
}

/**
 * A number with its number format, as the card and a cell reading a card's field show it:
 * ISO date formats (yyyy-mm-dd, yyyy-mm) show that much of the date, other date formats the
 * whole date, others the number and the quoted text of the format (the unit of a value:
 * 120 EUR/MWh).
 */
function displayFormatted(value: number, numberFormat: string): string {
  if (/^[ymd-]+$/i.test(numberFormat)) return serialToIsoDate(value).slice(0, numberFormat.length);
  if (/y/i.test(numberFormat)) return serialToIsoDate(value);
  const literal = /"([^"]*)"/.exec(numberFormat)?.[1];
  return literal ? `${displayScalar(value)} ${literal}` : displayScalar(value);
}

export interface LayoutInput {
  rows: number;
  columns: number;
  /** Cells with content, by address. */
  filled: readonly string[];
  result(address: string): CellResult | undefined;
}

export function layoutSheet(input: LayoutInput): Map<string, DisplayCell> {
  const shown = new Map<string, DisplayCell>();
  const filled = new Set(input.filled);
  const anchors = [...input.filled].sort(byPosition);
  for (const anchor of anchors) {
    const result = input.result(anchor);
    if (!result) continue;
    if (result.kind === "busy") {
      shown.set(anchor, { text: "#BUSY!", anchor, error: null, busy: true });
    } else if (result.kind === "error") {
      shown.set(anchor, {
        text: result.code,
        anchor,
        error: { code: result.code, message: result.message },
        busy: false,
      });
    } else if (!Array.isArray(result.value)) {
      shown.set(anchor, { text: displayScalar(result.value), anchor, error: null, busy: false });
    } else if (result.value.length === 1 && isEntityCell((result.value[0] as unknown[] | undefined)?.[0])) {
      // A 1×1 result holding a card (PCD.SERIES): one cell, with the card as its tooltip.
      const entity = (result.value[0] as EntityCell[])[0] as EntityCell;
      shown.set(anchor, {
        text: displayScalar(entity),
        anchor,
        error: null,
        busy: false,
        card: describeCard(entity),
      });
    } else {
      spill(anchor, result.value as unknown[][], input, filled, shown);
    }
  }
  return shown;
}

function spill(
  anchor: string,
  table: unknown[][],
  input: LayoutInput,
  filled: ReadonlySet<string>,
  shown: Map<string, DisplayCell>,
): void {
  const origin = parseCell(anchor);
  const height = table.length;
  const width = Math.max(0, ...table.map((row) => (Array.isArray(row) ? row.length : 0)));
  const targets: Array<{ position: CellPosition; value: unknown }> = [];
  let blocked: string | null = null;
  for (let r = 0; r < height; r += 1) {
    for (let c = 0; c < width; c += 1) {
      const position = { row: origin.row + r, column: origin.column + c };
      const address = cellName(position);
      const outside = position.row >= input.rows || position.column >= input.columns;
      const taken = (r > 0 || c > 0) && (filled.has(address) || shown.has(address));
      if ((outside || taken) && blocked === null) blocked = outside ? "the sheet's edge" : address;
      targets.push({ position, value: table[r]?.[c] ?? "" });
    }
  }
  if (blocked !== null) {
    shown.set(anchor, {
      text: "#SPILL!",
      anchor,
      error: {
        code: "#SPILL!",
        message: `The ${height}×${width} table would overwrite ${blocked}: clear the cells below and to the right.`,
      },
      busy: false,
    });
    return;
  }
  for (const { position, value } of targets) {
    shown.set(cellName(position), { text: displayScalar(value), anchor, error: null, busy: false });
  }
}

function byPosition(a: string, b: string): number {
  const first = parseCell(a);
  const second = parseCell(b);
  return first.row - second.row || first.column - second.column;
}
