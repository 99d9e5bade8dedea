// Text PCD writes into cells stays text. Excel reads a value written through range.values
// as if it were typed: "=…", "+…", "-…" and "@…" become formulas (a description or a
// currency from a shared workbook or the service could call out with the workbook's
// contents), and so do their full-width forms ("＝…") in East Asian Excel; "2024-10" becomes
// a date, and a leading apostrophe is taken as the text prefix. A leading apostrophe
// is Excel's own way to say "this is text": the cell shows the rest and reads back
// without it. Every writer of text (frozen values, the PCD sources sheet, the changes
// report) goes through the workbook host, which passes each value through here.
import type { CellScalar } from "./workbook-host";

/** First characters Excel would read as the start of a formula, or as its text prefix. */
const FORMULA_OR_PREFIX_START = /^[=+\-@']/;
/** C0 controls, DEL and C1 controls (tab and line breaks included). */
const isControl = (code: number): boolean => code <= 0x1f || (code >= 0x7f && code <= 0x9f);

/**
 * Text Excel may read as a number, a date, a time, a percentage, a boolean or an error value
 * ("2024-10", "1-2-3", "5%", "TRUE", "#N/A"): such a cell would no longer hold the text, and
 * Restore would find it "changed since the freeze". Any text with a digit is prefixed: the
 * prefix costs nothing where Excel would have kept the text anyway.
 */
const CONVERTIBLE = /\d|^#|^\s*(?:true|false)\s*$/i;

function readOtherwise(text: string): boolean {
  return (
    FORMULA_OR_PREFIX_START.test(text) ||
    (text !== "" && isControl(text.charCodeAt(0))) ||
    CONVERTIBLE.test(text)
  );
}

/**
 * True when Excel would not keep `text` as the same text if written as it is. The text's
 * compatibility form (NFKC) is checked too: Excel in East Asian languages reads the
 * full-width and small forms of "=", "+", "-" and "@" ("＝", "﹢", …) as the start of a
 * formula, and full-width digits as a number or a date.
 */
export function needsTextPrefix(text: string): boolean {
  return readOtherwise(text) || readOtherwise(text.normalize("NFKC"));
}

/** The value to write so that the cell shows it as it is: text that could be read otherwise gets the prefix. */
export function asCellText(value: CellScalar): CellScalar {
  return typeof value === "string" && needsTextPrefix(value) ? `'${value}` : value;
}

/** asCellText for every cell of a block. */
export function asCellTexts(rows: readonly (readonly CellScalar[])[]): CellScalar[][] {
  return rows.map((row) => row.map(asCellText));
}
