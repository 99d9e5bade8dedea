// Builds the formula text the "Insert" actions write into cells. Pure, so every quoting
// rule is table-tested: a code or text containing a quote must not break the formula
// (Excel escapes a quote inside a string literal by doubling it), and omitted optional
// arguments stay empty in the middle and are dropped at the end, exactly as a person
// would type them.

import {
  DEFAULT_FORECAST,
  DEFAULT_HEADERS,
  DEFAULT_ORDER,
  type ForecastOption,
  type HeadersOption,
  type OrderOption,
} from "../contracts/formula-options";

export interface ValuesFormulaOptions {
  currency?: string | null;
  unit?: string | null;
  /** "YYYY-MM" */
  startMonth?: string | null;
  endMonth?: string | null;
  headers?: HeadersOption | null;
  forecast?: ForecastOption | null;
  order?: OrderOption | null;
}

export interface ValueFormulaOptions {
  /** "YYYY-MM"; omitted: the latest final value. */
  month?: string | null;
  currency?: string | null;
  unit?: string | null;
}

/** `raw`: written as it is (a number or a cell reference the user typed, never text). */
type Argument = string | number | { raw: string } | null | undefined;

const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
// Control characters cannot be typed into a formula's string literal: refuse them
// instead of writing a formula Excel would reject.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export class FormulaTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormulaTextError";
  }
}

/** An Excel string literal: wrapped in quotes, inner quotes doubled. */
export function quoteText(text: string, argument: string): string {
  if (CONTROL_CHARACTERS.test(text)) {
    throw new FormulaTextError(
      `The ${argument} contains a line break or control character: ${JSON.stringify(text)}.`,
    );
  }
  return `"${text.replaceAll('"', '""')}"`;
}

function monthArgument(month: string | null | undefined, argument: string): string | null {
  if (month === null || month === undefined || month.trim() === "") return null;
  const text = month.trim();
  if (!MONTH_PATTERN.test(text)) {
    throw new FormulaTextError(`The ${argument} "${text}" is not a month: use YYYY-MM, e.g. 2020-01.`);
  }
  return text;
}

function optionalText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  return text === "" ? null : text;
}

function requiredCode(code: string): string {
  const text = code.trim();
  if (text === "") throw new FormulaTextError("A series code is required to build a formula.");
  return text;
}

/** Drops omitted trailing arguments; omitted ones in the middle stay empty (`"a",,"b"`). */
function call(name: string, args: ReadonlyArray<{ value: Argument; label: string }>): string {
  const rendered = args.map(({ value, label }) => {
    if (value === null || value === undefined) return "";
    if (typeof value === "object") return value.raw;
    return typeof value === "number" ? String(value) : quoteText(value, label);
  });
  while (rendered.length > 0 && rendered[rendered.length - 1] === "") rendered.pop();
  return `=PCD.${name}(${rendered.join(",")})`;
}

function unlessDefault<T extends number>(value: T | null | undefined, fallback: T): T | null {
  return value === null || value === undefined || value === fallback ? null : value;
}

export function valuesFormula(code: string, options: ValuesFormulaOptions = {}): string {
  return call("VALUES", [
    { value: requiredCode(code), label: "code" },
    { value: optionalText(options.currency), label: "currency" },
    { value: optionalText(options.unit), label: "unit" },
    { value: monthArgument(options.startMonth, "start month"), label: "start month" },
    { value: monthArgument(options.endMonth, "end month"), label: "end month" },
    // An argument equal to its default is left out (docs/decisions.md D1).
    { value: unlessDefault(options.headers, DEFAULT_HEADERS), label: "headers" },
    { value: unlessDefault(options.forecast, DEFAULT_FORECAST), label: "forecast" },
    { value: unlessDefault(options.order, DEFAULT_ORDER), label: "order" },
  ]);
}

export function valueFormula(code: string, options: ValueFormulaOptions = {}): string {
  return call("VALUE", [
    { value: requiredCode(code), label: "code" },
    { value: monthArgument(options.month, "month"), label: "month" },
    { value: optionalText(options.currency), label: "currency" },
    { value: optionalText(options.unit), label: "unit" },
  ]);
}

export interface EscalateFormulaOptions {
  /** A number or a cell reference, e.g. "1250000" or "B4". */
  amount: string;
  /** "YYYY-MM", required. */
  fromMonth: string;
  /** "YYYY-MM"; omitted: the latest final month. */
  toMonth?: string | null;
  currency?: string | null;
  unit?: string | null;
}

export interface AverageFormulaOptions {
  /** "YYYY-MM", both required. */
  startMonth: string;
  endMonth: string;
  currency?: string | null;
  unit?: string | null;
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const CELL_REFERENCE = /^\$?[A-Za-z]{1,3}\$?[1-9]\d{0,6}$/;

/** The amount of PCD.ESCALATE as written in the formula: a number or a cell reference. */
function amountArgument(amount: string): { raw: string } {
  const text = amount.trim().replaceAll(",", "");
  if (NUMBER_TEXT.test(text) || CELL_REFERENCE.test(text)) return { raw: text.toUpperCase() };
  throw new FormulaTextError(
    `The amount must be a number or a cell reference, e.g. 1250000 or B4; got ${JSON.stringify(amount)}.`,
  );
}

function requiredMonth(month: string | null | undefined, argument: string): string {
  const value = monthArgument(month, argument);
  if (value === null) throw new FormulaTextError(`The ${argument} is required (YYYY-MM).`);
  return value;
}

export function escalateFormula(code: string, options: EscalateFormulaOptions): string {
  return call("ESCALATE", [
    { value: amountArgument(options.amount), label: "amount" },
    { value: requiredCode(code), label: "code" },
    { value: requiredMonth(options.fromMonth, "from month"), label: "from month" },
    { value: monthArgument(options.toMonth, "to month"), label: "to month" },
    { value: optionalText(options.currency), label: "currency" },
    { value: optionalText(options.unit), label: "unit" },
  ]);
}

export function averageFormula(code: string, options: AverageFormulaOptions): string {
  return call("AVERAGE", [
    { value: requiredCode(code), label: "code" },
    { value: requiredMonth(options.startMonth, "start month"), label: "start month" },
    { value: requiredMonth(options.endMonth, "end month"), label: "end month" },
    { value: optionalText(options.currency), label: "currency" },
    { value: optionalText(options.unit), label: "unit" },
  ]);
}

export function infoFormula(code: string, field?: string | null): string {
  return call("INFO", [
    { value: requiredCode(code), label: "code" },
    { value: optionalText(field), label: "field" },
  ]);
}
