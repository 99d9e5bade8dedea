// The service's own words about a failure. Status codes and error bodies are not
// documented (field notes, "Errors"), so the text is looked for in every usual shape
// (JSON {message} / {error} / {detail} / plain text / HTML) and kept for the user,
// with anything that looks like a credential removed.
import type { PcdErrorDetails } from "../errors";

const MAX_MESSAGE_LENGTH = 300;
const MESSAGE_FIELDS = ["message", "error", "detail", "error_description", "msg", "title", "description"];
// Three base64url segments: the shape of a JWT (a token), wherever it appears.
const JWT_LIKE = /\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g;
const BEARER = /\bBearer\s+\S+/gi;

/**
 * The ways a service may echo a secret: as typed, escaped inside JSON text (an echoed
 * request body), or URL-encoded (an echoed query or form). HTML entities are decoded
 * before redaction instead (see extractServerMessage).
 */
function echoedForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), uri, uri.replace(/%20/g, "+")])];
}

/** Removes tokens (any JWT-shaped text, "Bearer ...") and the given secrets from a text. */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let result = text.replace(BEARER, "Bearer [redacted]").replace(JWT_LIKE, "[redacted]");
  for (const secret of secrets) {
    if (!secret) continue;
    // A token's parts are secrets too: a service may echo only its signature.
    const parts = [secret, ...secret.split(".").filter((part) => part.length >= 16)];
    // Longest forms first, so a shorter form never leaves the rest of a longer one behind.
    const forms = [...new Set(parts.flatMap(echoedForms))].sort((a, b) => b.length - a.length);
    for (const form of forms) result = result.split(form).join("[redacted]");
  }
  return result;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** The text an HTML page shows: entities decoded (an escaped secret must not slip past redaction). */
function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/** The free-text details of an error, redacted like its message. */
export function redactDetails(
  details: PcdErrorDetails,
  secrets: readonly (string | null | undefined)[] = [],
): PcdErrorDetails {
  const redacted: PcdErrorDetails = { ...details };
  if (details.serverMessage !== undefined)
    redacted.serverMessage = redactSecrets(details.serverMessage, secrets);
  if (details.reason !== undefined) redacted.reason = redactSecrets(details.reason, secrets);
  return redacted;
}

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

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The server's message, or null when the body says nothing readable. */
export function extractServerMessage(
  bodyText: string,
  secrets: readonly (string | null | undefined)[] = [],
): string | null {
  const trimmed = bodyText.trim();
  if (trimmed === "") return null;
  let message: string | null;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    message = messageFromJson(parsed) ?? (typeof parsed === "object" ? null : String(parsed));
  } catch {
    // Redacted before the tags go (a secret holding "<...>" would lose that part and slip
    // through), and again once the entities are decoded.
    message = trimmed.startsWith("<")
      ? decodeEntities(redactSecrets(trimmed, secrets).replace(/<[^>]*>/g, " "))
      : trimmed;
  }
  if (message === null) return null;
  message = collapse(redactSecrets(message, secrets));
  if (message === "") return null;
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
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
