// The offered name a mistyped currency or unit was probably meant to be ("t" -> "mt",
// "Mwhr" -> "MWh", "euro" -> "EUR"), for a refusal to suggest. Edit distance on the short
// names, and the full names too, since people type "euro" or "barrel".
import { distance } from "fastest-levenshtein";
import { findReference, type ReferenceEntry } from "./reference";

const MAX_NAME_LENGTH = 40;

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Edits allowed for a near miss: one for short names, two from five letters on. */
function allowedEdits(text: string): number {
  return text.length >= 5 ? 2 : 1;
}

/**
 * The one of `offered` (short names) nearest to `input`: within allowedEdits of its short
 * or full name, or the start of its full name (three letters or more). The first offered
 * wins a tie. null when none is near, or when the input is an offered name already.
 */
export function didYouMean(
  input: string,
  offered: readonly string[],
  table: readonly ReferenceEntry[],
): string | null {
  const typed = normalise(input);
  // No name is longer than this: a longer text is no typo of one (and costs no comparison).
  if (typed === "" || typed.length > MAX_NAME_LENGTH) return null;
  let best: { name: string; edits: number } | null = null;
  for (const name of offered) {
    const short = normalise(name);
    if (short === typed) return null;
    const full = normalise(findReference(table, name)?.fullName ?? "");
    const edits = Math.min(
      distance(typed, short),
      full === "" ? Infinity : distance(typed, full),
      typed.length >= 3 && full.startsWith(typed) ? 0 : Infinity,
    );
    // Never every name of one letter for another letter ("x" is not near "l").
    if (edits > allowedEdits(typed) || edits >= Math.max(typed.length, short.length)) continue;
    if (best === null || edits < best.edits) best = { name, edits };
  }
  return best?.name ?? null;
}
