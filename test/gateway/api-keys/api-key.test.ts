// API keys' secrets, their hashes and the member names their requests are attributed to.
import {
  apiKeyMember,
  apiKeyNameOf,
  hashApiKeySecret,
  isApiKeyName,
  newApiKeySecret,
} from "../../../src/gateway/api-keys/api-key";

test("a new secret is pcdk_ and 32 random bytes in base64url, different every time", () => {
  const secrets = new Set(Array.from({ length: 20 }, () => newApiKeySecret()));
  expect(secrets.size).toBe(20);
  for (const secret of secrets) {
    expect(secret).toMatch(/^pcdk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(5), "base64url")).toHaveLength(32);
  }
});

test("the hash kept is the secret's sha256 in hex", () => {
  expect(hashApiKeySecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test.each([
  { name: "nightly", valid: true },
  { name: "etl.prices_2026-v2", valid: true },
  { name: "a".repeat(64), valid: true },
  { name: "a".repeat(65), valid: false },
  { name: "Nightly", valid: false },
  { name: "-leading-dash", valid: false },
  { name: "ann@example.com", valid: false },
  { name: "", valid: false },
])("key name $name: valid $valid, and key:NAME maps back only when valid", ({ name, valid }) => {
  expect(isApiKeyName(name)).toBe(valid);
  expect(apiKeyNameOf(apiKeyMember(name))).toBe(valid ? name : null);
});

test.each(["ann@example.com", "key:", "key:ann@example.com", "keys:nightly"])(
  "%s is a person, not a key",
  (member) => {
    expect(apiKeyNameOf(member)).toBeNull();
  },
);
