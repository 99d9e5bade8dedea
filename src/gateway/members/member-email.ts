// Members' sign-in names: email addresses, compared without case or surrounding spaces.

export function normaliseEmail(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * A rough shape check (name@host): the gateway sends no mail, it only needs names to be distinct.
 * No ':' before the '@', so a member's name never looks like an API key's (key:NAME).
 */
export function isEmail(email: string): boolean {
  return /^[^\s@:]+@[^\s@]+$/.test(email);
}

/** True when `email` (normalised) is in `domain`, or when no domain is required. */
export function inDomain(email: string, domain: string | null): boolean {
  return domain === null || email.endsWith(`@${normaliseEmail(domain).replace(/^@/, "")}`);
}
