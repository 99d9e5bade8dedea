// The gateway's own access tokens for members: the same shape as the service's (a JWT that
// lives 2 hours, with iat and exp), signed with a secret every gateway instance shares.
import { jwtVerify, SignJWT } from "jose";

export const MEMBER_TOKEN_LIFETIME_S = 2 * 60 * 60;
const ISSUER = "pcd-gateway";

/** True for the `iss` of the gateway's own tokens (any other issuer's token is not one of them). */
export function isMemberToken(issuer: string | null): boolean {
  return issuer === ISSUER;
}

export async function issueMemberToken(email: string, secret: Uint8Array, nowMs: number): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + MEMBER_TOKEN_LIFETIME_S)
    .sign(secret);
}

/** The member's email (or an API key's key:NAME), or null when the token is not one of this gateway's or has expired. */
export async function verifyMemberToken(
  token: string,
  secret: Uint8Array,
  nowMs: number,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: new Date(nowMs),
    });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}
