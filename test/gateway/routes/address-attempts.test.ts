import { addressKey, countAddressAttempt } from "../../../src/gateway/routes/address-attempts";
import type { AttemptCounts } from "../../../src/gateway/store/gateway-store";

const NOW = Date.parse("2026-11-15T12:00:00Z");
const LIMIT = { max: 3, windowMs: 600_000 };

test.each<[string, number, number, { retryAfterSeconds: number } | null]>([
  // case, attempts the database counted (this one included), ms left in the window, outcome
  ["the first check of a window", 1, 600_000, null],
  ["the last check the limit allows", 3, 100_000, null],
  ["one past the limit: told when the window ends, in whole seconds", 4, 61_500, { retryAfterSeconds: 62 }],
  ["past the limit as the window ends: at least a second, never 0", 9, 0, { retryAfterSeconds: 1 }],
])("%s", async (_case, attempts, leftMs, outcome) => {
  const counts: AttemptCounts = {
    count: async () => ({ attempts, windowEnds: new Date(NOW + leftMs) }),
  };
  expect(await countAddressAttempt(counts, "203.0.113.7", LIMIT, NOW)).toEqual(outcome);
});

test("the address is counted under a key of its own, with the limit's window, on the gateway's clock", async () => {
  const calls: Array<[string, number, string]> = [];
  const counts: AttemptCounts = {
    count: async (key, windowMs, at) => {
      calls.push([key, windowMs, at.toISOString()]);
      return { attempts: 1, windowEnds: new Date(at.getTime() + windowMs) };
    },
  };
  await countAddressAttempt(counts, "203.0.113.7", LIMIT, NOW);
  expect(calls).toEqual([["password checks from 203.0.113.7", 600_000, "2026-11-15T12:00:00.000Z"]]);
  // The per-name count's keys start with the address, so no name can share this key.
  expect(addressKey("203.0.113.7").startsWith("203.0.113.7")).toBe(false);
});

test("a database that cannot count is not taken for a count within the limit", async () => {
  const counts: AttemptCounts = {
    count: async () => {
      throw new Error("connection refused");
    },
  };
  await expect(countAddressAttempt(counts, "203.0.113.7", LIMIT, NOW)).rejects.toThrow("connection refused");
});
