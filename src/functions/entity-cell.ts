// The entity value a PCD.SERIES card is (Excel.EntityCellValue, ExcelApi 1.16): a cell that
// shows a text, opens a card of named properties, and answers =A1.Property references.
// Only the parts PCD uses are typed here; a test checks they fit Office.js's own types.
import type { FormattedNumberCell } from "./cell-value";

export interface StringCell {
  type: "String";
  basicValue: string;
}

export interface DoubleCell {
  type: "Double";
  basicValue: number;
}

export interface BooleanCell {
  type: "Boolean";
  basicValue: boolean;
}

/** A value inside an entity: Excel wants typed values there, never bare strings or numbers. */
export type EntityScalar = StringCell | DoubleCell | BooleanCell | FormattedNumberCell;

/** A table held by one property (Excel.ArrayCellValue; it may not hold arrays itself). */
export interface ArrayCell {
  type: "Array";
  elements: EntityScalar[][];
}

export type EntityProperty = EntityScalar | ArrayCell;

export interface CardSection {
  layout: "List" | "Table" | "TwoColumn";
  title?: string;
  collapsible?: boolean;
  collapsed?: boolean;
  properties: string[];
}

export interface EntityCell {
  type: "Entity";
  /** What the cell shows. */
  text: string;
  properties: Record<string, EntityProperty>;
  layouts: {
    card: {
      title: { property: string };
      sections: CardSection[];
    };
  };
}

export function stringCell(text: string): StringCell {
  return { type: "String", basicValue: text };
}

export function doubleCell(value: number): DoubleCell {
  return { type: "Double", basicValue: value };
}

export function isEntityCell(value: unknown): value is EntityCell {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "Entity" &&
    typeof (value as { text?: unknown }).text === "string"
  );
}
