// Who is asking: a request's bearer token made a member, or the refusal that names why not.
// Three kinds of token: the gateway's own for a member (password sign-in) or for an API key
// (key:NAME), and, with organisation sign-in configured, the issuer's (oidc/oidc-verifier.ts).
import { decodeJwt } from "jose";
import { apiKeyCredentials, apiKeyNameOf } from "./api-keys/api-key";
import { isMemberToken, verifyMemberToken } from "./member-token";
import { inDomain } from "./members/member-email";
import type { OidcVerifier } from "./oidc/oidc-verifier";
import type { GatewayStore, Member } from "./store/gateway-store";

export interface MemberAccessSettings {
  store: GatewayStore;
  now: () => number;
  domain: string | null;
  /** Organisation sign-in; null: only the gateway's own tokens are accepted. */
  oidc: OidcVerifier | null;
}

export type Access = { member: Member } | { status: 401 | 403 | 503; message: string };

const SIGN_IN_AGAIN = "Invalid access token: sign in to the gateway again (POST /auth/access_token/v1).";

export function blockedMessage(email: string): string {
  return `Member ${email} is blocked at this gateway: ask the gateway's administrator.`;
}

function issuerOf(token: string): string | null {
  try {
    const { iss } = decodeJwt(token);
    return typeof iss === "string" ? iss : null;
  } catch {
    return null;
  }
}

async function memberOfGatewayToken(token: string, settings: MemberAccessSettings): Promise<Access> {
  const verified = await verifyMemberToken(token, await settings.store.tokenSecret(), settings.now());
  if (verified === null) return { status: 401, message: SIGN_IN_AGAIN };
  const { subject, credentials } = verified;
  const keyName = apiKeyNameOf(subject);
  if (keyName !== null) {
    // A revoked key's tokens stop working at once, and a new key of the same name is not theirs.
    const key = await settings.store.keys.find(keyName);
    if (key === null || key.revokedAt !== null || apiKeyCredentials(key) !== credentials) {
      return { status: 401, message: `Invalid access token: the API key ${keyName} was revoked.` };
    }
    return { member: { email: subject, admin: false, budget: key.budget, blocked: false } };
  }
  if (!inDomain(subject, settings.domain)) return { status: 401, message: SIGN_IN_AGAIN };
  // A removed member's tokens stop working at once; so do those issued before a new password.
  const member = await settings.store.members.findWithCredentials(subject, credentials);
  if (member === null) return { status: 401, message: SIGN_IN_AGAIN };
  return member.blocked ? { status: 403, message: blockedMessage(member.email) } : { member };
}

async function memberOfOrganisationToken(
  token: string,
  oidc: OidcVerifier,
  settings: MemberAccessSettings,
): Promise<Access> {
  const outcome = await oidc.verify(token);
  if (!("email" in outcome)) return outcome;
  const member = await settings.store.members.ensure(outcome.email);
  return member.blocked ? { status: 403, message: blockedMessage(member.email) } : { member };
}

export async function memberOfBearer(
  authorization: string | undefined,
  settings: MemberAccessSettings,
): Promise<Access> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  const token = match?.[1];
  if (token === undefined) return { status: 401, message: SIGN_IN_AGAIN };
  if (settings.oidc === null || isMemberToken(issuerOf(token))) return memberOfGatewayToken(token, settings);
  return memberOfOrganisationToken(token, settings.oidc, settings);
}
