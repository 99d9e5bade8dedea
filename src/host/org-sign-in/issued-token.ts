// An organisation access token as the engine keeps it: when it expires and whom it names
// (preferred_username, as the gateway reads it: the first of preferred_username, email,
// upn, in lower case). The claims are read, not checked: the gateway checks the signature.
import { decodeJwt } from "jose";
import type { IssuedToken } from "../../core/token-request";

function claimsOf(token: string): Record<string, unknown> {
  try {
    return decodeJwt(token);
  } catch {
    return {};
  }
}

/** The account a token names, or the fallback (the account MSAL or the dialog reported). */
export function accountOf(token: string, fallback: string | null): string | null {
  const claims = claimsOf(token);
  for (const name of ["preferred_username", "email", "upn"]) {
    const value = claims[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim().toLowerCase();
  }
  return fallback === null || fallback.trim() === "" ? null : fallback.trim().toLowerCase();
}

export function issuedToken(
  token: string,
  expiresAt: number,
  now: number,
  fallbackAccount: string | null,
): IssuedToken {
  const member = accountOf(token, fallbackAccount) ?? "your organisation's account";
  return { token, expiresAt, issuedAt: now, gateway: { member } };
}
