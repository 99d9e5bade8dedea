// The claims of a JSON Web Token's payload, read without checking the signature: the
// service checks its own tokens; the engine only reads when one expires (exp, iat) to
// renew it in time. A token that is not a readable JWT has no claims.

function base64UrlBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

/** The payload's claims of a compact JWT (three dot-separated parts), or undefined. */
export function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  const bytes = base64UrlBytes(parts[1]);
  if (bytes === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof claims === "object" && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
