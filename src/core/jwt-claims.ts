// The claims of a JSON Web Token's payload, read without checking the signature: the
// service checks its own tokens; the engine only reads when one expires (exp, iat) to
// renew it in time, and whether a team gateway issued it (iss, sub). jose's decodeJwt reads
// them. It loads with the first token (a chunk of its own in the add-in): a token only arrives
// after a network call, so Excel does not load the reader with the functions runtime at start.
// It comes from jose's own entry for it: jose's main entry would bring all of jose's modules
// into a process that runs the source (about eighty, a tenth of a second for the runner's
// sign-in), where the add-in's bundler keeps only what decodeJwt needs.

let jose: Promise<typeof import("jose/jwt/decode")> | undefined;

/**
 * The payload's claims of a compact JWT (three dot-separated parts), or undefined for a
 * token that is not a readable JWT. Rejects when jose cannot load; the next call tries again.
 */
export async function jwtClaims(token: string): Promise<Record<string, unknown> | undefined> {
  jose ??= import(
    /* webpackChunkName: "jwt-claims", webpackExports: ["decodeJwt"] */ "jose/jwt/decode"
  ).catch((error: unknown) => {
    jose = undefined;
    throw error;
  });
  const { decodeJwt } = await jose;
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

/** The issuer a team gateway names in its members' tokens; the service's own tokens name none. */
export const GATEWAY_ISSUER = "pcd-gateway";

/** Signed in through a team gateway: the member its token was issued to. */
export interface GatewaySession {
  member: string;
}

/**
 * The gateway session a token's claims show, or null for any other token (the service's
 * own, or one whose claims cannot be read). The member is the token's subject; a gateway
 * token without one was issued to the account that signed in (`username`).
 */
export function gatewayOf(
  claims: Record<string, unknown> | undefined,
  username: string,
): GatewaySession | null {
  if (claims?.iss !== GATEWAY_ISSUER) return null;
  const subject = typeof claims.sub === "string" ? claims.sub.trim() : "";
  return { member: subject === "" ? username : subject };
}
