// The service's own words about a failure. Status codes and error bodies are not
// documented (docs/service.md §7), so the text is looked for in every usual shape
// (JSON {message} / {error} / {detail} / plain text / HTML) and kept for the user, redacted
// (server-message.ts). Only a failure answer's body is read this way, so this code is not part
// of the functions runtime at start: it loads with the readers of answers (answer-readers.ts)
// and with the sign-in's token request.
import { redactSecrets, redactServiceText, canRedact } from "./server-message";

/** Error bodies longer than this (in characters) are not searched for a message at all. */
const MAX_EXAMINED_BODY_LENGTH = 1024 * 1024;
const MESSAGE_FIELDS = ["message", "error", "detail", "error_description", "msg", "title", "description"];

function messageFromJson(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const parts = value.map(messageFromJson).filter((part): part is string => part !== null);
    return parts.length > 0 ? parts.join("; ") : null;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const field of MESSAGE_FIELDS) {
      const found = messageFromJson(record[field]);
      if (found) return found;
    }
  }
  return null;
}

/** The server's message, or null when the body says nothing readable or may not be shown. */
export function extractServerMessage(
  bodyText: string,
  secrets: readonly (string | null | undefined)[] = [],
): string | null {
  if (!canRedact(secrets)) return null;
  // An error body beyond this is no message; reading it would only cost time and memory.
  if (bodyText.length > MAX_EXAMINED_BODY_LENGTH) return null;
  const trimmed = bodyText.trim();
  if (trimmed === "") return null;
  let message: string | null;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    message = messageFromJson(parsed) ?? (typeof parsed === "object" ? null : String(parsed));
  } catch {
    message = trimmed.startsWith("<") ? pageText(trimmed, secrets) : trimmed;
  }
  return message === null ? null : redactServiceText(message, secrets);
}

/**
 * The text of an HTML page. A secret holding "<...>" would lose that part with the tags
 * and slip through, so such secrets are cut out of the page first; the entities are
 * decoded afterwards, and redaction runs again on the text (redactServiceText).
 */
function pageText(html: string, secrets: readonly (string | null | undefined)[]): string {
  const withBrackets = secrets.filter(
    (secret) => secret !== null && secret !== undefined && /[<>]/.test(secret),
  );
  const page = withBrackets.length > 0 ? redactSecrets(html, withBrackets) : html;
  return page.replace(/<[^>]*>/g, " ");
}

/** A dataset field of a JSON error body ({"dataset": "Germany"}), when there is one. */
export function datasetFromJson(bodyText: string): string | null {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      for (const field of ["dataset", "coverage"]) {
        const value = record[field];
        if (typeof value === "string" && value.trim() !== "") return value.trim();
      }
    }
  } catch {
    // Not JSON: the text patterns apply.
  }
  return null;
}

const QUOTED = `["'\u201c\u201d\u2018\u2019]`;
const DATASET_PATTERNS: readonly RegExp[] = [
  // dataset "Germany" / dataset: 'Metals & Mining'
  new RegExp(`dataset\\s*[:=]?\\s*${QUOTED}([^"'\u201c\u201d\u2018\u2019]+)${QUOTED}`, "i"),
  // "Germany" dataset
  new RegExp(`${QUOTED}([^"'\u201c\u201d\u2018\u2019]+)${QUOTED}\\s+dataset`, "i"),
  // for Germany / for dataset Metals & Mining (a capitalised name up to punctuation or the end)
  /\b[Ff]or\s+(?:[Dd]ataset\s+)?([A-Z][A-Za-z&.'\- ]*?)\s*(?:\bdataset\b|$|[.,;:!()[\]])/,
];

/** Best effort: the dataset a quota message names, or null (the caller attaches it). */
export function datasetFromText(text: string): string | null {
  for (const pattern of DATASET_PATTERNS) {
    const name = pattern.exec(text)?.[1]?.trim();
    if (name) return name;
  }
  return null;
}
