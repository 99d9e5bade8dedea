// The one reader of PCD formulas, =PCD.NAME(arguments), in Excel's en-US form (comma
// separators, "" for a quote inside text, whatever the user's locale). It reads a formula
// two ways over the same grammar:
//
// - parsePcdFormula, for a cell of a workbook (Edit cell, Freeze, Restore, the sources
//   sheet): every argument is kept with the text that was typed. A text literal or a number
//   becomes a value the pane can show, an empty argument stays empty, and anything else (a
//   cell reference, DATE(...), another call, arithmetic) is an expression kept as typed.
//   Anything that is not one PCD call (a call inside ROUND, text after the call, quotes or
//   brackets that do not balance) reads as null.
// - parseFormulaValues, for the headless runner, which has no cells to refer to: arguments
//   must be text, numbers, TRUE/FALSE, empty or DATE(y,m,d), the function one PCD declares.
//   Parsing never throws: a line it cannot read becomes a FormulaSyntaxError naming the
//   column, and so does nesting deeper than Excel allows (DATE recurses once per level, so
//   without the bound a few thousand DATE( would overflow the stack and end the whole run).
import { FUNCTION_NAMES, type FunctionName } from "./pcd-signatures.generated";

export { FUNCTION_NAMES, type FunctionName };

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

/** What a runner's argument can be; null is an omitted (empty) argument. */
export type FormulaArgument = string | number | boolean | null;

export interface ParsedFormula {
  name: FunctionName;
  args: FormulaArgument[];
}

/** DATE(y,m,d) as a number (Excel's date serial), or undefined when there is no such day. */
export type DateValue = (date: { year: number; month: number; day: number }) => number | undefined;

export class FormulaSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormulaSyntaxError";
  }
}

/** Excel's limit on nested function calls in one formula. */
export const MAX_NESTING = 64;

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const NUMBER_PREFIX = new RegExp(`^${NUMBER}`);
const NUMBER_LITERAL = new RegExp(`^${NUMBER}$`);
const TEXT_LITERAL = /^"(?:[^"]|"")*"$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.]*/;
// Excel stores a call of a function it has not loaded with the _xldudf_ prefix.
const PCD_NAME = /^(?:_xldudf_)?PCD\.([A-Z][A-Z0-9_]*)$/i;

/** The PCD call a cell's formula consists of, or null when the formula is anything else. */
export function parsePcdFormula(formula: string): ParsedPcdFormula | null {
  try {
    const reader = new FormulaReader(formula);
    return reader.call((at) => reader.typedArgument(at));
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return null;
    throw error;
  }
}

/** A runner's formula with its literal arguments' values, or why it cannot be read. */
export function parseFormulaValues(text: string, dateValue: DateValue): ParsedFormula | FormulaSyntaxError {
  try {
    const reader = new FormulaReader(text);
    const { name, args } = reader.call(() => reader.literalArgument(dateValue), FUNCTION_NAMES);
    return { name: name as FunctionName, args };
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error;
    throw error;
  }
}

class FormulaReader {
  private position = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  /**
   * "=PCD.NAME(" and the arguments, each read by `argument`, to the closing parenthesis;
   * with `names`, a function not among them is refused before its arguments are read.
   */
  call<T>(argument: (at: number) => T, names?: readonly string[]): { name: string; args: T[] } {
    this.skipSpaces();
    this.expect("=");
    this.skipSpaces();
    const nameAt = this.position;
    const qualified = this.identifier();
    const name = PCD_NAME.exec(qualified)?.[1]?.toUpperCase();
    if (name === undefined || (names !== undefined && !names.includes(name))) {
      throw this.error(
        `unknown function ${qualified}; expected PCD.${FUNCTION_NAMES.join(", PCD.")}`,
        nameAt,
      );
    }
    const args = this.argumentList(argument);
    this.skipSpaces();
    if (this.position < this.text.length) throw this.error("unexpected text after the closing parenthesis");
    return { name, args };
  }

  /** An argument as typed, up to the "," or ")" that ends it at this level. */
  typedArgument(start: number): PcdArgument {
    let depth = 0;
    for (; this.position < this.text.length; this.position += 1) {
      const char = this.text.charAt(this.position);
      if (char === '"' || char === "'") {
        // Text literal, or a quoted sheet name ('My sheet'!A1); the quote doubles inside.
        this.position = this.closingQuote(this.position);
      } else if (char === "(" || char === "{") {
        depth += 1;
      } else if (char === ")" || char === "}") {
        if (depth === 0) {
          if (char === "}") throw this.error("unbalanced brace");
          break;
        }
        depth -= 1;
      } else if (char === "," && depth === 0) {
        break;
      }
    }
    return classify(this.text.slice(start, this.position).trim());
  }

  /** A text in quotes, a number, TRUE/FALSE, DATE(y,m,d) or nothing (null). */
  literalArgument(dateValue: DateValue): FormulaArgument {
    this.skipSpaces();
    const next = this.peek();
    if (next === "," || next === ")") return null;
    if (next === '"') {
      const start = this.position;
      const end = this.closingQuote(start);
      this.position = end + 1;
      return this.text.slice(start + 1, end).replaceAll('""', '"');
    }
    if (next !== undefined && /[-+.\d]/.test(next)) {
      const match = NUMBER_PREFIX.exec(this.text.slice(this.position));
      if (!match) throw this.error("malformed number");
      this.position += match[0].length;
      return Number(match[0]);
    }
    const word = this.identifier().toUpperCase();
    if (word === "TRUE") return true;
    if (word === "FALSE") return false;
    if (word === "DATE") return this.date(dateValue);
    throw this.error(
      word
        ? `unsupported argument ${word}`
        : "expected a text in quotes, a number, TRUE/FALSE or DATE(y,m,d)",
    );
  }

  error(message: string, at = this.position): FormulaSyntaxError {
    return new FormulaSyntaxError(`Cannot parse formula at column ${at + 1}: ${message}.`);
  }

  private argumentList<T>(argument: (at: number) => T): T[] {
    this.skipSpaces();
    this.expect("(");
    this.depth += 1;
    if (this.depth > MAX_NESTING) {
      throw this.error(
        `functions nested deeper than ${MAX_NESTING} levels (Excel's limit)`,
        this.position - 1,
      );
    }
    try {
      return this.argumentsUntilClose(argument);
    } finally {
      this.depth -= 1;
    }
  }

  private argumentsUntilClose<T>(argument: (at: number) => T): T[] {
    const args: T[] = [];
    this.skipSpaces();
    if (this.peek() === ")") {
      this.position += 1;
      return args;
    }
    for (;;) {
      args.push(argument(this.position));
      this.skipSpaces();
      const next = this.peek();
      this.position += 1;
      if (next === ")") return args;
      if (next !== ",") throw this.error('expected "," or ")"', this.position - 1);
    }
  }

  private date(dateValue: DateValue): number {
    const parts = this.argumentList(() => this.literalArgument(dateValue));
    const [year, month, day] = parts;
    const serial =
      parts.length === 3 && typeof year === "number" && typeof month === "number" && typeof day === "number"
        ? dateValue({ year, month, day })
        : undefined;
    if (serial === undefined) throw this.error("DATE needs a valid year, month and day, e.g. DATE(2024,1,1)");
    return serial;
  }

  /** Index of the quote closing the literal opened at `open`. */
  private closingQuote(open: number): number {
    const quote = this.text.charAt(open);
    for (let index = open + 1; index < this.text.length; index += 1) {
      if (this.text.charAt(index) !== quote) continue;
      if (this.text.charAt(index + 1) === quote) {
        index += 1;
        continue;
      }
      return index;
    }
    throw this.error(quote === '"' ? "unterminated text literal" : "unterminated quoted name", open);
  }

  private identifier(): string {
    const match = IDENTIFIER.exec(this.text.slice(this.position));
    if (!match) return "";
    this.position += match[0].length;
    return match[0];
  }

  private expect(char: string): void {
    if (this.peek() !== char) throw this.error(`expected "${char}"`);
    this.position += 1;
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private skipSpaces(): void {
    while (/\s/.test(this.text.charAt(this.position))) this.position += 1;
  }
}

function classify(raw: string): PcdArgument {
  if (raw === "") return { kind: "empty", raw: "" };
  if (TEXT_LITERAL.test(raw)) return { kind: "text", value: raw.slice(1, -1).replaceAll('""', '"'), raw };
  if (NUMBER_LITERAL.test(raw)) return { kind: "number", value: Number(raw), raw };
  return { kind: "expression", raw };
}
