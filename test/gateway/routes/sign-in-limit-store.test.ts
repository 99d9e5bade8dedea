import { sharedSignInLimitStore } from "../../../src/gateway/routes/sign-in-limit-store";
import type { AttemptCounts } from "../../../src/gateway/store/gateway-store";
import type { FastifyRateLimitOptions } from "@fastify/rate-limit";

const NOW = Date.parse("2026-11-15T12:00:00Z");

/** What the limiter's store answers for one attempt, when the database counts as `counts` does. */
function incr(counts: AttemptCounts["count"]): Promise<{ error: Error | null; result?: unknown }> {
  const Store = sharedSignInLimitStore({ count: counts }, () => NOW);
  const store = new Store({} as FastifyRateLimitOptions);
  return new Promise((resolve) =>
    store.incr("127.0.0.1|ann@example.com", (error, result) => resolve({ error, result }), 60_000, 10),
  );
}

test.each<[string, AttemptCounts["count"], { error: string | null; result?: unknown }]>([
  [
    "the third attempt of a window with 20 s left",
    async () => ({ attempts: 3, windowEnds: new Date(NOW + 20_000) }),
    { error: null, result: { current: 3, ttl: 20_000 } },
  ],
  [
    "a window that the database says ended already: no time left, not a negative one",
    async () => ({ attempts: 1, windowEnds: new Date(NOW - 5) }),
    { error: null, result: { current: 1, ttl: 0 } },
  ],
  [
    "a database that cannot count: the limiter's error names the cause, not the database's text",
    async () => {
      throw new Error('relation "sign_in_attempts" does not exist at 10.0.0.5:5432');
    },
    { error: "The gateway's database could not count this sign-in attempt: try again shortly." },
  ],
])("%s", async (_case, counts, expected) => {
  const { error, result } = await incr(counts);
  expect({ error: error?.message ?? null, ...(result === undefined ? {} : { result }) }).toEqual(expected);
});

test("the window is counted on the gateway's clock, with the route's window length", async () => {
  const calls: Array<[string, number, string]> = [];
  await incr(async (key, windowMs, at) => {
    calls.push([key, windowMs, at.toISOString()]);
    return { attempts: 1, windowEnds: new Date(at.getTime() + windowMs) };
  });
  expect(calls).toEqual([["127.0.0.1|ann@example.com", 60_000, "2026-11-15T12:00:00.000Z"]]);
});
