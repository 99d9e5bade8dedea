// Members' passwords, kept only as scrypt hashes: "scrypt$N$r$p$salt$hash" (salt and hash in
// base64), so the parameters can be raised later and old hashes still verify.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// N = 2^15, r = 8: 32 MiB and about 0.1 s a hash. (OWASP's minimum is 2^17 at 128 MiB a hash;
// Node's thread pool hashes up to four at once, and 2^15 keeps a burst of sign-ins within a small
// server's memory, while sign-in attempts are rate limited besides.)
const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// The most memory a hash may take; scrypt needs 128 * N * r bytes (32 MiB at these settings),
// the same as Node's default cap, so the cap is raised.
const MAX_MEMORY = 256 * 1024 * 1024;

interface ScryptHash {
  options: ScryptOptions;
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function parse(stored: string): ScryptHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [cost, blockSize, parallelism] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const hash = Buffer.from(parts[5] ?? "", "base64");
  if (!Number.isInteger(cost) || !Number.isInteger(blockSize) || !Number.isInteger(parallelism)) return null;
  if (salt.length === 0 || hash.length === 0) return null;
  return { options: { N: cost, r: blockSize, p: parallelism }, salt, hash };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const options = { N: COST, r: BLOCK_SIZE, p: PARALLELISM };
  const hash = await derive(password, salt, HASH_BYTES, options);
  return ["scrypt", COST, BLOCK_SIZE, PARALLELISM, salt.toString("base64"), hash.toString("base64")].join(
    "$",
  );
}

/** True when `password` is the one `stored` was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const candidate = await derive(password, parsed.salt, parsed.hash.length, parsed.options);
  return timingSafeEqual(candidate, parsed.hash);
}

/**
 * What a member who signs in through the organisation (OpenID Connect) has instead of a hash:
 * not a hash of anything, so no password ever verifies against it.
 */
export const NO_PASSWORD = "none";

// A well-formed hash of no member's password: checking a password of an unknown member against
// it costs what checking a real member's costs, so the time taken does not tell who is a member.
const NO_MEMBER = [
  "scrypt",
  COST,
  BLOCK_SIZE,
  PARALLELISM,
  randomBytes(SALT_BYTES).toString("base64"),
  randomBytes(HASH_BYTES).toString("base64"),
].join("$");

/** Spends one hash computation and answers false (for a member that does not exist). */
export async function verifyAgainstNoMember(password: string): Promise<false> {
  await verifyPassword(password, NO_MEMBER);
  return false;
}
