// The gateway's own access tokens for members: the same shape as the service's (a JWT that
// lives 2 hours, with iat and exp), signed with a secret every gateway instance shares. Each
// carries the id of the credentials it was issued for (`cred`): a token outlives neither a
// replaced password nor a revoked API key, even when the name is given to someone again.
import { jwtVerify, SignJWT } from "jose";

export const MEMBER_TOKEN_LIFETIME_S = 2 * 60 * 60;
const ISSUER = "pcd-gateway";

/** True for the `iss` of the gateway's own tokens (any other issuer's token is not one of them). */
export function isMemberToken(issuer: string | null): boolean {
  return issuer === ISSUER;
}

/** Who a token is for and the credentials it was issued for. */
export interface TokenSubject {
  /** The member's email, or an API key's key:NAME. */
  subject: string;
  credentials: string;
}

export async function issueMemberToken(
  { subject, credentials }: TokenSubject,
  secret: Uint8Array,
  nowMs: number,
): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({ cred: credentials })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + MEMBER_TOKEN_LIFETIME_S)
    .sign(secret);
}

/** Who the token is for, or null when it is not one of this gateway's or has expired. */
export async function verifyMemberToken(
  token: string,
  secret: Uint8Array,
  nowMs: number,
): Promise<TokenSubject | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      algorithms: ["HS256"],
      currentDate: new Date(nowMs),
    });
    const { sub, cred } = payload;
    return typeof sub === "string" && typeof cred === "string" ? { subject: sub, credentials: cred } : null;
  } catch {
    return null;
  }
}
