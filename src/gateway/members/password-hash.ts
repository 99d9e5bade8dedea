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

/** How members' passwords are hashed and checked: scrypt at one cost (N) for new hashes. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  /** True when `password` is the one `stored` was made from (at whatever cost it names). */
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * Spends what checking a member's password costs and answers false, for a member that does
   * not exist: the time taken does not tell who is a member.
   */
  verifyNoMember(password: string): Promise<false>;
}

function scryptText(cost: number, salt: Buffer, hash: Buffer): string {
  return ["scrypt", cost, BLOCK_SIZE, PARALLELISM, salt.toString("base64"), hash.toString("base64")].join(
    "$",
  );
}

/** True when `password` is the one `stored` was made from; compared in constant time. */
async function verifyPassword(password: string, stored: string): Promise<boolean> {
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

/**
 * scrypt at `cost` (a power of two). The gateway hashes at COST; a lower cost is for tests that
 * save members by the dozen and are not about the hash (a hash at 2^15 costs about 0.15
 * CPU-seconds).
 */
export function scryptHashing(cost: number = COST): PasswordHashing {
  // A well-formed hash of no member's password, at this cost.
  const noMember = scryptText(cost, randomBytes(SALT_BYTES), randomBytes(HASH_BYTES));
  return {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const options = { N: cost, r: BLOCK_SIZE, p: PARALLELISM };
      return scryptText(cost, salt, await derive(password, salt, HASH_BYTES, options));
    },
    verify: verifyPassword,
    async verifyNoMember(password) {
      await verifyPassword(password, noMember);
      return false;
    },
  };
}

/** The gateway's hashing: scrypt at COST. */
export const MEMBER_PASSWORDS = scryptHashing();
