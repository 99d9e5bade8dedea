// Passwords kept as scrypt hashes whose text carries their parameters, checked in constant time.
import { randomBytes, scryptSync } from "node:crypto";
import { MEMBER_PASSWORDS, scryptHashing } from "../../../src/gateway/members/password-hash";

const { hash: hashPassword, verify: verifyPassword, verifyNoMember } = MEMBER_PASSWORDS;

const PASSWORD = "correct horse battery staple";
let stored: string;

beforeAll(async () => {
  stored = await hashPassword(PASSWORD);
});

test("a hash names its parameters and holds a 16-byte salt and a 32-byte hash, not the password", () => {
  const [scheme, cost, blockSize, parallelism, salt, hash] = stored.split("$");
  expect([scheme, cost, blockSize, parallelism]).toEqual(["scrypt", "32768", "8", "1"]);
  expect(Buffer.from(salt ?? "", "base64")).toHaveLength(16);
  expect(Buffer.from(hash ?? "", "base64")).toHaveLength(32);
  expect(stored).not.toContain(PASSWORD);
});

test.each([
  { case: "the password", password: PASSWORD, matches: true },
  {
    case: "the same text in another Unicode form",
    password: "cafe\u0301",
    storedFor: "caf\u00e9",
    matches: true,
  },
  { case: "one character short", password: PASSWORD.slice(0, -1), matches: false },
  { case: "another case", password: PASSWORD.toUpperCase(), matches: false },
  { case: "an empty password", password: "", matches: false },
])("$case: $matches", async ({ password, storedFor, matches }) => {
  const hash = storedFor === undefined ? stored : await hashPassword(storedFor);
  expect(await verifyPassword(password, hash)).toBe(matches);
});

test("a hash made with other parameters verifies with the parameters it names", async () => {
  const salt = randomBytes(16);
  const hash = scryptSync(PASSWORD, salt, 24, { N: 2 ** 14, r: 8, p: 2 });
  const older = ["scrypt", 2 ** 14, 8, 2, salt.toString("base64"), hash.toString("base64")].join("$");
  expect(await verifyPassword(PASSWORD, older)).toBe(true);
  expect(await verifyPassword("another password", older)).toBe(false);
});

test.each([
  "",
  "correct horse battery staple",
  "bcrypt$10$abc$def$ghi$jkl",
  "scrypt$x$8$1$c2FsdA==$aGFzaA==",
  "scrypt$32768$8$1$$",
])("a stored text that is no scrypt hash (%j) never matches", async (text) => {
  expect(await verifyPassword(PASSWORD, text)).toBe(false);
});

test("checking a password for no member answers false", async () => {
  await expect(verifyNoMember(PASSWORD)).resolves.toBe(false);
});

test("hashing at another cost names that cost, verifies with it, and spends it on no member", async () => {
  const hashing = scryptHashing(2 ** 10);
  const hash = await hashing.hash(PASSWORD);
  expect(hash.split("$").slice(0, 4)).toEqual(["scrypt", "1024", "8", "1"]);
  expect(await hashing.verify(PASSWORD, hash)).toBe(true);
  expect(await verifyPassword(PASSWORD, hash)).toBe(true);
  expect(await hashing.verify("another password", hash)).toBe(false);
  await expect(hashing.verifyNoMember(PASSWORD)).resolves.toBe(false);
});
