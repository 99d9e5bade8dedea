// An organisation access token as the engine keeps it: when it expires and whom it names
// (preferred_username, as the gateway reads it: the first of preferred_username, email,
// upn, in lower case). The claims are read, not checked: the gateway checks the signature.
// A few lines rather than a JWT library: this code loads with the pane.
import type { IssuedToken } from "../../core/token-request";

/** The payload's claims of a compact JWT, or none when it is not one. */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split(".")[1];
  if (payload === undefined) return {};
  try {
    const text = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const json: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The account a token names, or the fallback (the account MSAL reported). */
export function accountOf(token: string, fallback: string | null): string {
  const claims = claimsOf(token);
  for (const name of ["preferred_username", "email", "upn"]) {
    const value = claims[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim().toLowerCase();
  }
  return fallback?.trim().toLowerCase() || "your organisation's account";
}

export function issuedToken(token: string, expiresAt: number, now: number, account: string): IssuedToken {
  return { token, expiresAt, issuedAt: now, gateway: { member: account } };
}
