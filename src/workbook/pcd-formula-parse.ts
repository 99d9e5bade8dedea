// Reads a cell's formula back into a PCD function name and its arguments, so the pane
// can edit a cell it (or a person) wrote. Excel hands the pane formulas in its en-US form
// (comma separators, "" for a quote inside text), whatever the user's locale.
//
// Only a cell whose whole formula is one PCD call is editable. Each argument is kept with
// the text that was typed: a text literal or a number becomes a field the pane can show,
// an empty argument stays empty, and anything else (a cell reference, DATE(...), another
// call, arithmetic) is an expression the pane keeps as typed.

export type PcdArgument =
  | { kind: "empty"; raw: "" }
  | { kind: "text"; value: string; raw: string }
  | { kind: "number"; value: number; raw: string }
  | { kind: "expression"; raw: string };

export interface ParsedPcdFormula {
  /** Upper case, without the "PCD." prefix, e.g. "VALUES". */
  name: string;
  args: PcdArgument[];
}

const CALL_START = /^\s*=\s*(?:_xldudf_)?PCD\.([A-Z][A-Z0-9_]*)\s*\(/i;
const TEXT_LITERAL = /^"(?:[^"]|"")*"$/;
const NUMBER_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:E[+-]?\d+)?$/i;

/** The PCD call a formula consists of, or null when the formula is anything else. */
export function parsePcdFormula(formula: string): ParsedPcdFormula | null {
  const start = CALL_START.exec(formula);
  if (!start) return null;
  const pieces = splitArguments(formula, start[0].length);
  if (pieces === null) return null;
  const name = (start[1] ?? "").toUpperCase();
  // "=PCD.LIMITS()" has no arguments, not one empty one.
  const args = pieces.length === 1 && pieces[0]?.trim() === "" ? [] : pieces.map(classify);
  return { name, args };
}

/**
 * The top-level arguments between the call's parentheses, or null when the text after
 * the closing parenthesis is not empty (e.g. `=PCD.VALUE("a")*2`) or quotes and brackets
 * do not balance.
 */
function splitArguments(formula: string, from: number): string[] | null {
  const pieces: string[] = [];
  let depth = 0;
  let current = "";
  for (let index = from; index < formula.length; index += 1) {
    const char = formula.charAt(index);
    if (char === '"' || char === "'") {
      // Text literal, or a quoted sheet name ('My sheet'!A1); the quote doubles inside.
      const end = closingQuote(formula, index, char);
      if (end < 0) return null;
      current += formula.slice(index, end + 1);
      index = end;
    } else if (char === "(" || char === "{") {
      depth += 1;
      current += char;
    } else if (char === ")" || char === "}") {
      if (depth === 0) {
        if (char === "}") return null;
        pieces.push(current);
        return formula.slice(index + 1).trim() === "" ? pieces : null;
      }
      depth -= 1;
      current += char;
    } else if (char === "," && depth === 0) {
      pieces.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  return null;
}

/** Index of the quote closing the literal opened at `open`, or -1. */
function closingQuote(text: string, open: number, quote: string): number {
  for (let index = open + 1; index < text.length; index += 1) {
    if (text.charAt(index) !== quote) continue;
    if (text.charAt(index + 1) === quote) {
      index += 1;
      continue;
    }
    return index;
  }
  return -1;
}

function classify(piece: string): PcdArgument {
  const raw = piece.trim();
  if (raw === "") return { kind: "empty", raw: "" };
  if (TEXT_LITERAL.test(raw)) return { kind: "text", value: raw.slice(1, -1).replaceAll('""', '"'), raw };
  if (NUMBER_LITERAL.test(raw)) return { kind: "number", value: Number(raw), raw };
  return { kind: "expression", raw };
}
