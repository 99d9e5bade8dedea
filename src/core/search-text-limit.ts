// The cap on a search text, shared by PCD.SEARCH's argument check and the search itself.
// Apart from the search index so checking an argument does not load the index's library.

/**
 * The longest search text, in characters. The longest assessment names are well under
 * this; a longer text is a pasted paragraph or an attack, and would only cost time.
 */
export const MAX_SEARCH_TEXT_LENGTH = 200;

/** The message for a search text over the cap ("text" in PCD.SEARCH, "Search text" in the pane). */
export function searchTextTooLong(length: number, subject = "Search text"): string {
  return `${subject} is ${length.toLocaleString("en-US")} characters long: search with at most ${MAX_SEARCH_TEXT_LENGTH} characters (a few words or a code).`;
}
