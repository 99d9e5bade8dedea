// API keys for scripts: a random secret shown once, kept only as its sha256 (a key has 256 bits
// of entropy, so a fast hash is enough: there is nothing to guess). A key signs in at
// /auth/access_token/v1 with the username `api-key` and the key as the password, and its
// requests are the member `key:NAME`'s: budgets, the audit and the usage report name it so.
import { createHash, randomBytes } from "node:crypto";
import type { ApiKey } from "../store/gateway-store";

export const API_KEY_USERNAME = "api-key";
const SECRET_PREFIX = "pcdk_";
const SECRET_BYTES = 32;
const MEMBER_PREFIX = "key:";
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A new key's secret: pcdk_ and 32 random bytes in base64url. */
export function newApiKeySecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

/** What the store keeps of a secret: its sha256, in hex. */
export function hashApiKeySecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Key names: lower-case letters, digits, '.', '_' and '-', up to 64, so `key:NAME` is never an email. */
export function isApiKeyName(name: string): boolean {
  return NAME.test(name);
}

/** The member name a key's requests are attributed to. */
export function apiKeyMember(name: string): string {
  return `${MEMBER_PREFIX}${name}`;
}

/** The key's name when `member` is a key's member name (key:NAME); null for a person. */
export function apiKeyNameOf(member: string): string | null {
  if (!member.startsWith(MEMBER_PREFIX)) return null;
  const name = member.slice(MEMBER_PREFIX.length);
  return isApiKeyName(name) ? name : null;
}

/**
 * The credentials a key's tokens carry: its creation time, which a new key of the same name
 * (after a revocation) never shares, so the old key's tokens stay refused.
 */
export function apiKeyCredentials(key: Pick<ApiKey, "createdAt">): string {
  return `key-created-${key.createdAt.getTime()}`;
}
