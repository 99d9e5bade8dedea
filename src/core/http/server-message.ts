// Service text fit to show: whatever the service or a runtime says (an error body, a network
// failure's cause) is normalised and has anything that looks like a credential removed before
// it reaches a message. Finding the message in an error body is error-body.ts.
import type { PcdErrorDetails } from "../errors";
import { truncate } from "../truncate";

const MAX_MESSAGE_LENGTH = 300;
// Three base64url segments: the shape of a JWT (a token), wherever it appears.
const JWT_LIKE = /\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g;
const BEARER = /\bBearer\s+\S+/gi;

/**
 * Secrets shorter than this are not cut out of texts: a password "p" would turn "https"
 * into "htt[redacted]s", garbling every message and showing where the password was.
 * While such a secret is in play, the service's text is left out whole instead.
 */
export const MIN_REDACTABLE_SECRET_LENGTH = 4;

/** Whether a text can be redacted for these secrets (no secret is too short to find safely). */
export function canRedact(secrets: readonly (string | null | undefined)[]): boolean {
  return secrets.every((secret) => !secret || secret.length >= MIN_REDACTABLE_SECRET_LENGTH);
}

/**
 * The ways a service may echo a secret besides as typed: escaped inside JSON text (an
 * echoed request body) or URL-encoded (an echoed query or form). Whitespace, case, HTML
 * entities and percent-encoding of the text are normalised before matching instead.
 */
function echoedForms(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  return [secret, JSON.stringify(secret).slice(1, -1), uri, uri.replace(/%20/g, "+")];
}

/** Regex syntax characters, escaped to match literally (the "u" flag allows no other escapes). */
const REGEX_SYNTAX = /[\^$\\.*+?()[\]{}|/]/g;

/**
 * One pattern finding any of the secrets' forms in any case and spacing: between two
 * characters of a form any run of whitespace or "+" (a form-encoded space) may stand.
 * A form's own characters never match that run, so matching stays linear (no backtracking
 * blow-up), and the texts it runs on are bounded (see MAX_REDACTED_LENGTH).
 */
function secretsPattern(forms: readonly string[]): RegExp | null {
  const alternatives = [
    ...new Set(forms.map((form) => [...form].filter((character) => !/^[\s+]$/u.test(character)))),
  ]
    .filter((characters) => characters.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((characters) => characters.map((c) => c.replace(REGEX_SYNTAX, "\\$&")).join("[\\s+]*"));
  return alternatives.length === 0 ? null : new RegExp(alternatives.join("|"), "giu");
}

/** Every form of the secrets a service may echo (the secret and its long token segments). */
function secretForms(secrets: readonly (string | null | undefined)[]): string[] {
  const forms: string[] = [];
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_REDACTABLE_SECRET_LENGTH) continue;
    // A token's parts are secrets too: a service may echo only its signature.
    const parts = [secret, ...secret.split(".").filter((part) => part.length >= 16)];
    forms.push(...parts.flatMap(echoedForms));
  }
  return forms;
}

/**
 * A run of 16 or more base64 characters holding an upper-case letter, a lower-case letter and
 * a digit, or of 16 or more hex digits holding a letter and a digit: a token, a key or a
 * secret in some encoding (base64 of the token, a signature). Paths, words, codes, dataset
 * names and UUIDs (hex in groups of at most 12) do not qualify.
 */
const ENCODED_RUN = /[A-Za-z0-9+/_]{16,}={0,2}/g;
const maskEncodedRun = (run: string): string => {
  const digit = /\d/.test(run);
  const base64 = digit && /[A-Z]/.test(run) && /[a-z]/.test(run);
  const hex = digit && /^[0-9a-fA-F]+$/.test(run) && /[a-fA-F]/.test(run);
  return base64 || hex ? "[redacted]" : run;
};

/**
 * Removes tokens (any JWT-shaped text, "Bearer ..."), long encoded runs and the given
 * secrets from a text. A secret is found in any spacing or case, as typed, JSON-escaped or
 * URL-encoded. Secrets shorter than MIN_REDACTABLE_SECRET_LENGTH are not looked for (see
 * canRedact).
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  const pattern = secretsPattern(secretForms(secrets));
  const result = pattern === null ? text : text.replace(pattern, "[redacted]");
  return result
    .replace(BEARER, "Bearer [redacted]")
    .replace(JWT_LIKE, "[redacted]")
    .replace(ENCODED_RUN, maskEncodedRun);
}

// A Map: an entity named like an Object property ("&constructor;") must not match.
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "],
]);

/** The text an HTML page shows: entities decoded (an escaped secret must not slip past redaction). */
function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith("#")) {
      const code =
        name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES.get(name.toLowerCase()) ?? entity;
  });
}

/** Decodes each run of %XX sequences that is valid UTF-8; anything else stays as it is. */
function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Unicode format characters (zero-width spaces and joiners, soft hyphens, direction marks). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;
/** Percent-decoding is repeated this often at most: a doubly encoded echo is decoded too. */
const PERCENT_DECODING_ROUNDS = 4;

/**
 * Service text as PCD shows it: format characters removed, HTML entities decoded,
 * percent-encoding decoded until nothing changes, whitespace (tabs and no-break spaces too)
 * collapsed. Redaction runs on this form, so an echo cannot hide behind an encoding.
 */
export function normaliseServiceText(text: string): string {
  let decoded = decodeEntities(text.replace(FORMAT_CHARACTERS, "")).replace(FORMAT_CHARACTERS, "");
  for (let round = 0; round < PERCENT_DECODING_ROUNDS; round += 1) {
    const next = decodePercent(decoded).replace(FORMAT_CHARACTERS, "");
    if (next === decoded) break;
    decoded = next;
  }
  return collapse(decoded);
}

/**
 * Only the start of a service's text is ever shown (MAX_MESSAGE_LENGTH), so only that much,
 * plus room for a secret spread out by the service, is redacted: a secret that starts in
 * the shown part ends within it. This bounds the work a huge body can cause.
 */
const MAX_REDACTED_LENGTH = MAX_MESSAGE_LENGTH + 8192;

/**
 * Service text fit to show: normalised, redacted and cut to `maxLength`; null when a
 * secret is too short to be cut out safely (the text is then left out whole) or nothing
 * readable remains.
 */
export function redactServiceText(
  text: string,
  secrets: readonly (string | null | undefined)[] = [],
  maxLength = MAX_MESSAGE_LENGTH,
): string | null {
  if (!canRedact(secrets)) return null;
  const windowLength = Math.max(maxLength, MAX_REDACTED_LENGTH);
  // Normalising only shortens a text, so its start usually comes from the start of the
  // text; when the start normalises to less than the window (whitespace, entities), the
  // whole text is normalised, so no secret is cut in two at the edge.
  const start = text.length > windowLength * 8 ? normaliseServiceText(text.slice(0, windowLength * 8)) : null;
  const window = (start !== null && start.length > windowLength ? start : normaliseServiceText(text)).slice(
    0,
    windowLength,
  );
  const shown = collapse(redactSecrets(window, secrets));
  if (shown === "") return null;
  return truncate(shown, maxLength);
}

/** The free-text details of an error, redacted like its message (left out when that is unsafe). */
export function redactDetails(
  details: PcdErrorDetails,
  secrets: readonly (string | null | undefined)[] = [],
): PcdErrorDetails {
  const redacted: PcdErrorDetails = { ...details };
  delete redacted.serverMessage;
  const serverMessage =
    details.serverMessage === undefined ? null : redactServiceText(details.serverMessage, secrets);
  if (serverMessage !== null) redacted.serverMessage = serverMessage;
  if (details.reason !== undefined) redacted.reason = redactSecrets(details.reason, secrets);
  return redacted;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
