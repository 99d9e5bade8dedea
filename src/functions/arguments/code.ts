// The `code` argument. A number here is always a user mistake: either Excel computed a code
// typed without quotes (68520-8-1 -> 68511), or it turned a code typed into a cell, like
// 1-2-3, into a date. The message says which may have happened and how to fix it.
import { MAX_DATE_SERIAL, formatCalendar, serialToCalendar } from "../excel-dates";
import { argumentError, describeValue, isOmitted, shortened } from "./argument-error";

/** Three hyphen-separated digit groups; group widths vary (69138-1-13, 912-5-2, 0xxx-...). */
const CODE_PATTERN = /^\d+-\d+-\d+$/;
/** Dashes that copy-paste from documents puts where a hyphen belongs. */
const DASH_LOOKALIKES = /[\u2010-\u2015\u2212]/g;

/** `argument` names the code argument in messages (PCD.RELOCATE has from_code and to_code). */
export function parseCode(input: unknown, argument = "code"): string {
  if (typeof input === "number") throw argumentError(argument, numericCodeMessage(input, argument));
  if (isOmitted(input)) {
    throw argumentError(
      argument,
      `The ${argument} is missing: give an assessment code as text, e.g. "68520-8-1".`,
    );
  }
  if (typeof input !== "string") {
    throw argumentError(
      argument,
      `The ${argument} arrived as ${describeValue(input)}: give an assessment code as text, e.g. "68520-8-1".`,
    );
  }
  const code = input.trim().replace(DASH_LOOKALIKES, "-");
  if (!CODE_PATTERN.test(code)) {
    throw argumentError(
      argument,
      `The ${argument} "${shortened(input.trim())}" is not an assessment code: a code is three groups of digits separated by hyphens, e.g. "68520-8-1".`,
    );
  }
  return code;
}

function numericCodeMessage(input: number, argument: string): string {
  const arithmetic =
    `The ${argument} arrived as the number ${input}: Excel computed a code typed without quotes (68520-8-1) as arithmetic. ` +
    `Type the code as text in quotes, e.g. "68520-8-1".`;
  if (!Number.isInteger(input) || input < 1 || input > MAX_DATE_SERIAL) return arithmetic;
  const date = formatCalendar(serialToCalendar(input));
  return (
    `The ${argument} arrived as the number ${input}: Excel computed a code without quotes (68520-8-1) as arithmetic, ` +
    `or turned a code typed in a cell (1-2-3) into the date ${date}. Quote the code, ` +
    `e.g. "68520-8-1"; in a cell, format it as Text or type '1-2-3.`
  );
}
