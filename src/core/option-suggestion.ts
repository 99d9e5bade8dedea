// The "did you mean" of a refused currency or unit: resolve-request.ts refuses a name the
// reference tables do not know and marks the error; this adds the offered name nearest to
// what was typed. It lives apart, loaded on the first such mistake, because its edit
// distance (fastest-levenshtein) is of no use to a workbook whose arguments are right, and
// the functions runtime Excel loads at start stays small.
import { didYouMean } from "./did-you-mean";
import { PcdError } from "./errors";
import { CURRENCIES, UNITS } from "./reference";
import { notOfferedMessage } from "./resolve-request";

/** The error with "did you mean …?" when a near offered name exists; else the error itself. */
export function withSuggestion(error: PcdError): PcdError {
  const { argument, allowed, unknownName } = error.details;
  if (unknownName === undefined || allowed === undefined) return error;
  if (argument !== "currency" && argument !== "unit") return error;
  const suggestion = didYouMean(unknownName.typed, allowed, argument === "currency" ? CURRENCIES : UNITS);
  if (suggestion === null) return error;
  return new PcdError(
    "input",
    notOfferedMessage(argument, unknownName.shown, unknownName.code, allowed, suggestion),
    error.details,
  );
}
