// The emulator's deterministic randomness: a generator seeded through keyedSeeds (the key's
// first parts hashed once) draws exactly what Prng.from draws with the whole key, so the
// catalog, the values and the golden files do not move when a caller hashes keys that way.
import { hashString, keyedSeeds, Prng } from "../../src/emulator/prng";

const rows: Array<{ name: string; seed: number; prefix: Array<string | number>; last: string | number }> = [
  { name: "no shared part", seed: 42, prefix: [], last: "faults" },
  { name: "a walk step", seed: 42, prefix: ["walk", "68520-8-1"], last: 233 },
  { name: "a release's pick", seed: 7, prefix: ["revise", 230], last: "3400-12-4" },
  { name: "an empty last part", seed: 1, prefix: ["season"], last: "" },
  { name: "a part with the separator in it", seed: 3, prefix: ["a|b"], last: "c|d" },
  { name: "a negative seed", seed: -5, prefix: ["fx", "EUR"], last: 0 },
];

test.each(rows)("$name: keyedSeeds seeds what Prng.from seeds", ({ seed, prefix, last }) => {
  const whole = Prng.from(seed, ...prefix, last);
  const keyed = new Prng(keyedSeeds(seed, ...prefix)(last));
  const draws = (random: Prng) => Array.from({ length: 5 }, () => random.next());
  expect(draws(keyed)).toEqual(draws(whole));
});

test("the seed is FNV-1a of the key text: a known value", () => {
  // FNV-1a 32 of the empty string is its offset basis, of "a" 0xe40c292c.
  expect(hashString("")).toBe(0x811c9dc5);
  expect(hashString("a")).toBe(0xe40c292c);
  expect(keyedSeeds(1, "x")("y")).toBe(hashString("1|x|y"));
});
