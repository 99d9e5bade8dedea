// The formula grammar of the headless runner: =PCD.NAME(args) with string literals ("" is
// a quote inside), numbers, TRUE/FALSE, empty arguments and DATE(y,m,d). Parsing never
// throws: a line it cannot read becomes a FormulaSyntaxError for that line, and so does
// nesting deeper than Excel allows (the parser recurses once per level, so without the
// bound a few thousand DATE( would overflow the stack and end the whole run).
import { calendarToSerial, isValidCalendarDate } from "../functions/excel-dates";

export type FunctionName =
  | "VALUES"
  | "VALUE"
  | "INFO"
  | "LIMITS"
  | "SEARCH"
  | "ESCALATE"
  | "CHANGE"
  | "AVERAGE"
  | "RELOCATE"
  | "SERIES";
export const FUNCTION_NAMES: readonly FunctionName[] = [
  "VALUES",
  "VALUE",
  "INFO",
  "LIMITS",
  "SEARCH",
  "ESCALATE",
  "CHANGE",
  "AVERAGE",
  "RELOCATE",
  "SERIES",
];

/** What a cell argument can be; null is an omitted (empty) argument. */
export type FormulaArgument = string | number | boolean | null;

export interface ParsedFormula {
  name: FunctionName;
  args: FormulaArgument[];
}

export class FormulaSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormulaSyntaxError";
  }
}

export function parseFormula(text: string): ParsedFormula | FormulaSyntaxError {
  try {
    return new FormulaParser(text).formula();
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error;
    throw error;
  }
}

/** Excel's limit on nested function calls in one formula. */
export const MAX_NESTING = 64;

class FormulaParser {
  private position = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  formula(): ParsedFormula {
    this.skipSpaces();
    this.expect("=");
    this.skipSpaces();
    const qualified = this.identifier();
    const match = /^PCD\.([A-Z]+)$/i.exec(qualified);
    const name = match?.[1]?.toUpperCase() as FunctionName | undefined;
    if (!name || !FUNCTION_NAMES.includes(name)) {
      throw this.error(`unknown function ${qualified}; expected PCD.${FUNCTION_NAMES.join(", PCD.")}`);
    }
    const args = this.argumentList();
    this.skipSpaces();
    if (this.position < this.text.length) throw this.error("unexpected text after the closing parenthesis");
    return { name, args };
  }

  private argumentList(): FormulaArgument[] {
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
      return this.argumentsUntilClose();
    } finally {
      this.depth -= 1;
    }
  }

  private argumentsUntilClose(): FormulaArgument[] {
    const args: FormulaArgument[] = [];
    this.skipSpaces();
    if (this.peek() === ")") {
      this.position += 1;
      return args;
    }
    for (;;) {
      args.push(this.argument());
      this.skipSpaces();
      const next = this.peek();
      this.position += 1;
      if (next === ")") return args;
      if (next !== ",") throw this.error('expected "," or ")"', this.position - 1);
    }
  }

  private argument(): FormulaArgument {
    this.skipSpaces();
    const next = this.peek();
    if (next === "," || next === ")") return null;
    if (next === '"') return this.stringLiteral();
    if (next !== undefined && /[-+.\d]/.test(next)) return this.number();
    const word = this.identifier().toUpperCase();
    if (word === "TRUE") return true;
    if (word === "FALSE") return false;
    if (word === "DATE") return this.date();
    throw this.error(
      word
        ? `unsupported argument ${word}`
        : "expected a text in quotes, a number, TRUE/FALSE or DATE(y,m,d)",
    );
  }

  private stringLiteral(): string {
    const start = this.position;
    this.position += 1;
    let value = "";
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) throw this.error("unterminated text literal", start);
      this.position += 1;
      if (char !== '"') {
        value += char;
      } else if (this.peek() === '"') {
        value += '"';
        this.position += 1;
      } else {
        return value;
      }
    }
  }

  private number(): number {
    const match = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.text.slice(this.position));
    if (!match) throw this.error("malformed number");
    this.position += match[0].length;
    return Number(match[0]);
  }

  private date(): number {
    const parts = this.argumentList();
    const [year, month, day] = parts;
    if (
      parts.length !== 3 ||
      typeof year !== "number" ||
      typeof month !== "number" ||
      typeof day !== "number" ||
      !isValidCalendarDate({ year, month, day })
    ) {
      throw this.error("DATE needs a valid year, month and day, e.g. DATE(2024,1,1)");
    }
    return calendarToSerial({ year, month, day });
  }

  private identifier(): string {
    const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.position));
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
    while (this.peek() === " " || this.peek() === "\t") this.position += 1;
  }

  private error(message: string, at = this.position): FormulaSyntaxError {
    return new FormulaSyntaxError(`Cannot parse formula at column ${at + 1}: ${message}.`);
  }
}
