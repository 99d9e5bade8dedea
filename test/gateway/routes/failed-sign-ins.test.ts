import {
  addressHeldFor,
  countFailedSignIn,
  failedSignInsKey,
} from "../../../src/gateway/routes/failed-sign-ins";
import type { AttemptCounts } from "../../../src/gateway/store/gateway-store";

const NOW = Date.parse("2026-11-15T12:00:00Z");
const LIMIT = { max: 3, windowMs: 600_000 };
const IP = "203.0.113.7";

/** Counts that answer `current` as given and record what is counted. */
function countsOf(current: { attempts: number; leftMs: number } | null): {
  counts: AttemptCounts;
  counted: Array<[string, number, string]>;
} {
  const counted: Array<[string, number, string]> = [];
  return {
    counted,
    counts: {
      current: async () =>
        current === null ? null : { attempts: current.attempts, windowEnds: new Date(NOW + current.leftMs) },
      count: async (key, windowMs, at) => {
        counted.push([key, windowMs, at.toISOString()]);
        return { attempts: 1, windowEnds: new Date(at.getTime() + windowMs) };
      },
    },
  };
}

test.each<[string, { attempts: number; leftMs: number } | null, number | null]>([
  // case, the address's failures in its current window, seconds it is held for
  ["no failure in a window", null, null],
  ["failures below the limit", { attempts: 2, leftMs: 300_000 }, null],
  [
    "failures at the limit: held until the window ends, in whole seconds",
    { attempts: 3, leftMs: 61_500 },
    62,
  ],
  ["failures past the limit as the window ends: at least a second, never 0", { attempts: 7, leftMs: 1 }, 1],
])("%s", async (_case, current, heldFor) => {
  const { counts, counted } = countsOf(current);
  expect(await addressHeldFor(counts, IP, LIMIT, NOW)).toBe(heldFor);
  // Looking counts nothing: only a failed check does.
  expect(counted).toEqual([]);
});

test("a failure is counted under the address's own key, with the limit's window, on the gateway's clock", async () => {
  const { counts, counted } = countsOf(null);
  await countFailedSignIn(counts, IP, LIMIT, NOW);
  expect(counted).toEqual([["failed password checks from 203.0.113.7", 600_000, "2026-11-15T12:00:00.000Z"]]);
  // The per-name count's keys start with the address, so no name can share this key.
  expect(failedSignInsKey(IP).startsWith(IP)).toBe(false);
});

test("a database that cannot read the count is not taken for an address within its limit", async () => {
  const counts: AttemptCounts = {
    current: async () => {
      throw new Error("connection refused");
    },
    count: async () => {
      throw new Error("connection refused");
    },
  };
  await expect(addressHeldFor(counts, IP, LIMIT, NOW)).rejects.toThrow("connection refused");
});
