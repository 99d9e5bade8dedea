// Shared by the argument parsers: what counts as "omitted", and the one way to reject an
// argument (a PcdError of kind "input", shown as #VALUE!, naming the argument and what it
// accepts).
import { truncate } from "../../core/truncate";
import { PcdError } from "../../core/errors";

export function argumentError(argument: string, message: string, allowed?: readonly string[]): PcdError {
  return new PcdError("input", message, allowed ? { argument, allowed } : { argument });
}

/** Excel passes null for an omitted argument; an empty text (e.g. an empty cell reference) counts too. */
export function isOmitted(value: unknown): value is null | undefined | "" {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "");
}

/** Longest piece of the user's own text a message repeats, "…" included (the guidance must still fit in 255). */
export const MAX_QUOTED_INPUT = 41;

/** The user's text as a message quotes it: cut to MAX_QUOTED_INPUT characters. */
export function shortened(text: string): string {
  return truncate(text, MAX_QUOTED_INPUT);
}

/** How an unexpected argument value reads in a message. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return `"${shortened(value)}"`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return "a range";
  return String(value);
}

/**
 * Joins names for a message, cutting the list (with "and N more") so it stays within
 * maxChars: Excel shows at most 255 characters of an error message.
 */
export function listWithin(items: readonly string[], maxChars: number): string {
  const all = items.join(", ");
  if (all.length <= maxChars) return all;
  const shown: string[] = [];
  for (const item of items) {
    const rest = items.length - shown.length - 1;
    const candidate = [...shown, item].join(", ") + `, and ${rest} more`;
    if (candidate.length > maxChars) break;
    shown.push(item);
  }
  return `${shown.join(", ")}, and ${items.length - shown.length} more`;
}
