// The `text` argument of PCD.SEARCH. A number is searched as its digits (part of a code).
import { MAX_SEARCH_TEXT_LENGTH, searchTextTooLong } from "../../core/search-text-limit";
import { argumentError, describeValue, isOmitted } from "./argument-error";

export function parseSearchText(input: unknown): string {
  if (typeof input === "number" && Number.isFinite(input)) return String(input);
  if (isOmitted(input)) {
    throw argumentError(
      "text",
      'The search text is empty: give words to search for, e.g. "natural gas germany".',
    );
  }
  if (typeof input !== "string") {
    throw argumentError(
      "text",
      `The search text arrived as ${describeValue(input)}: give words to search for as text.`,
    );
  }
  const text = input.trim();
  // Checked before anything is searched: a pasted page of text is refused at once.
  if (text.length > MAX_SEARCH_TEXT_LENGTH)
    throw argumentError("text", searchTextTooLong(text.length, "The search text"));
  return text;
}
