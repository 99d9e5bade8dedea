// "Edit cell": the selected cell's PCD formula as a form (one field per argument), and the
// formula "Update cell" writes back. An argument the user did not change is written back
// exactly as it was typed, so a reference (A1), DATE(2024,1,1) or a nested call survives
// an edit of another argument; a field that starts with "=" is written as an expression.
import { FormulaTextError, quoteText } from "./formula-text";
import { parsePcdFormula, type PcdArgument } from "./pcd-formula-parse";
import { argumentSpecs, type ArgumentSpec } from "./argument-specs";

export interface EditField extends ArgumentSpec {
  /** What the field shows: text without its quotes, anything else as typed. */
  value: string;
  /** The argument is an expression (reference, nested call) shown as typed. */
  expression: boolean;
  original: PcdArgument;
}

export interface CellEdit {
  address: string;
  name: string;
  fields: EditField[];
  /** Arguments beyond the function's signature: kept as typed (the function reports them). */
  extra: PcdArgument[];
}

const NUMBER_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:E[+-]?\d+)?$/i;

function shown(argument: PcdArgument): string {
  return argument.kind === "text" ? argument.value : argument.raw;
}

/** The form for a cell, or null when its formula is not one call of a PCD function. */
export function cellEditFromFormula(address: string, formula: string): CellEdit | null {
  const parsed = parsePcdFormula(formula);
  const signature = parsed ? argumentSpecs(parsed.name) : undefined;
  if (!parsed || !signature) return null;
  const fields = signature.map((spec, index): EditField => {
    const original: PcdArgument = parsed.args[index] ?? { kind: "empty", raw: "" };
    return { ...spec, value: shown(original), expression: original.kind === "expression", original };
  });
  return { address, name: parsed.name, fields, extra: parsed.args.slice(signature.length) };
}

function rendered(field: EditField, value: string): string {
  if (value === field.value) return field.original.raw;
  const typed = value.trim();
  if (typed === "") return "";
  if (typed.startsWith("=")) {
    const expression = typed.slice(1).trim();
    if (expression === "") throw new FormulaTextError(`The ${field.label.toLowerCase()} is only "=".`);
    return expression;
  }
  if (field.kind === "number") {
    if (!NUMBER_LITERAL.test(typed)) {
      throw new FormulaTextError(
        `The ${field.label.toLowerCase()} "${typed}" is not a number (start with "=" for a reference).`,
      );
    }
    return typed;
  }
  return quoteText(typed, field.label.toLowerCase());
}

/** The formula for the form's values (one per field, in order); throws FormulaTextError. */
export function updatedFormula(edit: CellEdit, values: readonly string[]): string {
  const args = edit.fields.map((field, index) => rendered(field, values[index] ?? field.value));
  args.push(...edit.extra.map((argument) => argument.raw));
  while (args.length > 0 && args[args.length - 1] === "") args.pop();
  return `=PCD.${edit.name}(${args.join(",")})`;
}
