import { checkPassed, countCheck, failedSignInsKey } from "../../../src/gateway/routes/failed-sign-ins";
import type { AttemptCounts } from "../../../src/gateway/store/gateway-store";

const NOW = Date.parse("2026-11-15T12:00:00Z");
const LIMIT = { max: 3, windowMs: 600_000 };
const CLIENT = "203.0.113.7";

/** Counts whose `count` answers as given, recording what is counted and taken back. */
function countsOf(answer: { attempts: number; leftMs: number }): {
  counts: AttemptCounts;
  calls: Array<[string, string, number | null, string]>;
} {
  const calls: Array<[string, string, number | null, string]> = [];
  return {
    calls,
    counts: {
      count: async (key, windowMs, at) => {
        calls.push(["count", key, windowMs, at.toISOString()]);
        return { attempts: answer.attempts, windowEnds: new Date(NOW + answer.leftMs) };
      },
      uncount: async (key, at) => {
        calls.push(["uncount", key, null, at.toISOString()]);
      },
    },
  };
}

test.each<[string, { attempts: number; leftMs: number }, number | null]>([
  // case, the client's checks in its window with this one, seconds it is held for
  ["the first check of a window", { attempts: 1, leftMs: 600_000 }, null],
  ["the last check the limit allows", { attempts: 3, leftMs: 300_000 }, null],
  ["one past the limit: held until the window ends, in whole seconds", { attempts: 4, leftMs: 61_500 }, 62],
  ["past the limit as the window ends: at least a second, never 0", { attempts: 9, leftMs: 1 }, 1],
])("%s", async (_case, answer, heldFor) => {
  const { counts, calls } = countsOf(answer);
  expect(await countCheck(counts, CLIENT, LIMIT, NOW)).toBe(heldFor);
  // The check is counted before it is made, under the client's own key, on the gateway's clock.
  expect(calls).toEqual([
    ["count", "failed password checks from 203.0.113.7", 600_000, "2026-11-15T12:00:00.000Z"],
  ]);
});

test("a right password takes its check back off the client's count", async () => {
  const { counts, calls } = countsOf({ attempts: 1, leftMs: 600_000 });
  await checkPassed(counts, CLIENT, NOW);
  expect(calls).toEqual([
    ["uncount", "failed password checks from 203.0.113.7", null, "2026-11-15T12:00:00.000Z"],
  ]);
  // The per-name count's keys start with the client, so no name can share this key.
  expect(failedSignInsKey(CLIENT).startsWith(CLIENT)).toBe(false);
});

test("a database that cannot count is not taken for a client within its limit", async () => {
  const counts: AttemptCounts = {
    count: async () => {
      throw new Error("connection refused");
    },
    uncount: async () => undefined,
  };
  await expect(countCheck(counts, CLIENT, LIMIT, NOW)).rejects.toThrow("connection refused");
});
