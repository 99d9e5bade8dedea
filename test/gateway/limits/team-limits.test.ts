// The team's Data Limits against a service whose answers the test holds and releases: when the
// gateway asks, what it tells members, and how its own purchases move the kept answer.
import type { ProductId } from "../../../src/core/model";
import { FAILED_LIMITS_HOLD_MS, TeamLimits } from "../../../src/gateway/limits/team-limits";
import type { UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";

const MAX_AGE_MS = 30_000;
const SETTLE_QUIET_MS = 2_000;

function limitsAnswer(report: Record<string, unknown>, status = 200): UpstreamAnswer {
  return { status, body: JSON.stringify(report), contentType: "application/json", retryAfter: null };
}

const germany = (remaining: number): UpstreamAnswer =>
  limitsAnswer({ Germany: { remaining_requests: remaining, total_requests: 500 } });

function setup() {
  const clock = { now: Date.parse("2026-11-10T15:00:00Z"), elapsed: 0 };
  const held: Array<{ product: ProductId; release: (answer: UpstreamAnswer) => void }> = [];
  const limits = new TeamLimits({
    read: (product) => new Promise((release) => held.push({ product, release })),
    now: () => clock.now,
    maxAgeMs: MAX_AGE_MS,
    settleQuietMs: SETTLE_QUIET_MS,
    elapsed: () => clock.elapsed,
  });
  const release = (answer: UpstreamAnswer): void => {
    const next = held.shift();
    if (!next) throw new Error("no Data Limits call is waiting for its answer");
    next.release(answer);
  };
  return { clock, held, limits, release };
}

const remainingIn = (answer: UpstreamAnswer): unknown =>
  (JSON.parse(answer.body) as { Germany?: { remaining_requests?: unknown } }).Germany?.remaining_requests;

test("members asking together share one call, and the answer is kept for its time", async () => {
  const { clock, held, limits, release } = setup();
  const asked = [limits.answer("energy_price"), limits.answer("energy_price")];
  expect(held).toHaveLength(1);
  release(germany(480));
  expect((await Promise.all(asked)).map(remainingIn)).toEqual([480, 480]);
  clock.now += MAX_AGE_MS - 1;
  expect(remainingIn(await limits.answer("energy_price"))).toBe(480);
  expect(held).toHaveLength(0);
  clock.now += 1;
  const again = limits.answer("energy_price");
  expect(held).toHaveLength(1);
  release(germany(470));
  expect(remainingIn(await again)).toBe(470);
});

test("what the gateway bought after the answer is taken off it, per dataset", async () => {
  const { limits, release } = setup();
  const first = limits.answer("energy_price");
  release(
    limitsAnswer({
      Germany: { remaining_requests: 480, total_requests: 500 },
      France: { remaining_requests: 2, total_requests: 500 },
    }),
  );
  await first;
  limits.callStarted("energy_price");
  limits.callEnded("energy_price", ["Germany", "Germany", "France", "France", "France"]);
  expect(JSON.parse((await limits.answer("energy_price")).body)).toEqual({
    Germany: { remaining_requests: 478, total_requests: 500 },
    France: { remaining_requests: 0, total_requests: 500 },
  });
});

test("an answer read while a purchase was under way is read again once the purchases have been over a moment", async () => {
  const { clock, held, limits, release } = setup();
  limits.callStarted("energy_price");
  const during = limits.answer("energy_price");
  // The service counted the purchase, answered Data Limits, then the purchase's answer came.
  release(germany(479));
  await during;
  limits.callEnded("energy_price", ["Germany"]);
  // Members asking right after the purchase get the kept answer less it, without a call.
  clock.elapsed += SETTLE_QUIET_MS - 1;
  expect(remainingIn(await limits.answer("energy_price"))).toBe(478);
  expect(held).toHaveLength(0);
  clock.elapsed += 1;
  const settled = limits.answer("energy_price");
  expect(held).toHaveLength(1);
  release(germany(479));
  expect(remainingIn(await settled)).toBe(479);
  // Settled now: kept.
  await limits.answer("energy_price");
  expect(held).toHaveLength(0);
});

test("while purchases go on, the kept answer less what they charged is told, without a call", async () => {
  const { held, limits, release } = setup();
  const first = limits.answer("energy_price");
  limits.callStarted("energy_price");
  release(germany(480));
  await first;
  limits.callStarted("energy_price");
  limits.callEnded("energy_price", ["Germany"]);
  expect(remainingIn(await limits.answer("energy_price"))).toBe(479);
  expect(held).toHaveLength(0);
});

test("a refusal is told as the service said it, and the next member's ask calls again", async () => {
  const { held, limits, release } = setup();
  // A 4xx but the rate's: not held (a failure and a 429 are, below).
  const refusal = limitsAnswer({ message: "Not included in your subscription." }, 403);
  const first = limits.answer("energy_price");
  release(refusal);
  expect(await first).toEqual(refusal);
  void limits.answer("energy_price");
  expect(held).toHaveLength(1);
});

test("an answer that is not a JSON object is passed on as the service sent it", async () => {
  const { limits, release } = setup();
  const unreadable = { ...germany(480), body: "<html>" };
  const first = limits.answer("energy_price");
  release(unreadable);
  await first;
  limits.callStarted("energy_price");
  limits.callEnded("energy_price", ["Germany"]);
  expect(await limits.answer("energy_price")).toEqual(unreadable);
});

test("a dataset named __proto__ stays a dataset of the answer", async () => {
  const { limits, release } = setup();
  const first = limits.answer("energy_price");
  release({ ...germany(0), body: '{"__proto__":{"remaining_requests":5,"total_requests":9}}' });
  await first;
  limits.callStarted("energy_price");
  limits.callEnded("energy_price", ["__proto__"]);
  const told = JSON.parse((await limits.answer("energy_price")).body) as Record<string, unknown>;
  expect(Object.keys(told)).toEqual(["__proto__"]);
  expect(Object.getOwnPropertyDescriptor(told, "__proto__")?.value).toEqual({
    remaining_requests: 4,
    total_requests: 9,
  });
});

test("after the clock went back, the kept answer is read again", async () => {
  const { clock, held, limits, release } = setup();
  const first = limits.answer("energy_price");
  release(germany(480));
  await first;
  clock.now -= 60_000;
  void limits.answer("energy_price");
  expect(held).toHaveLength(1);
});

test("a purchase whose charge no answer says (no answer, or one that could not be read) makes the kept answer be read again", async () => {
  const { clock, held, limits, release } = setup();
  const first = limits.answer("energy_price");
  release(germany(480));
  await first;
  limits.callStarted("energy_price");
  limits.callEnded("energy_price", [], false);
  clock.elapsed += SETTLE_QUIET_MS;
  const again = limits.answer("energy_price");
  expect(held).toHaveLength(1);
  release(germany(479));
  expect(remainingIn(await again)).toBe(479);
});

// Members' engines retry a failed Data Limits read within seconds, per product and per look at
// the Usage tab: the service's failure answers them for a while instead of a call each.
test.each<[string, number, number]>([
  ["a 503: told again without a call within its while", 503, 0],
  ["a 429: told again without a call within its while", 429, 0],
  ["a 403: not held, asked again", 403, 1],
])("%s", async (_case, status, callsAfter) => {
  const { clock, held, limits, release } = setup();
  const first = limits.answer("energy_price");
  const failure = limitsAnswer({ message: "failing" }, status);
  release(failure);
  expect(await first).toEqual(failure);
  clock.now += FAILED_LIMITS_HOLD_MS - 1;
  const again = limits.answer("energy_price");
  expect(held).toHaveLength(callsAfter);
  if (callsAfter === 0) expect(await again).toEqual(failure);
  else {
    release(germany(480));
    expect(remainingIn(await again)).toBe(480);
  }
});

test("after the while the service is asked again, and its answer ends the hold", async () => {
  const { clock, held, limits, release } = setup();
  const first = limits.answer("energy_price");
  release(limitsAnswer({ message: "failing" }, 503));
  await first;
  clock.now += FAILED_LIMITS_HOLD_MS;
  const again = limits.answer("energy_price");
  expect(held).toHaveLength(1);
  release(germany(480));
  expect(remainingIn(await again)).toBe(480);
  expect(held).toHaveLength(0);
});

test("a 429 asking for longer than the while is held for all of it, its Retry-After counting down", async () => {
  const { clock, held, limits, release } = setup();
  const first = limits.answer("energy_price");
  const refusal = { ...limitsAnswer({ message: "Too many requests" }, 429), retryAfter: "120" };
  release(refusal);
  expect(await first).toEqual(refusal);
  clock.now += 100_000;
  expect(await limits.answer("energy_price")).toEqual({ ...refusal, retryAfter: "20" });
  expect(held).toHaveLength(0);
  clock.now += 20_000;
  const again = limits.answer("energy_price");
  expect(held).toHaveLength(1);
  release(germany(480));
  expect(remainingIn(await again)).toBe(480);
});

test("a held failure tells the service's own Retry-After, counting down, not the hold's rest", async () => {
  const { clock, limits, release } = setup();
  const first = limits.answer("energy_price");
  const failure = { ...limitsAnswer({ message: "failing" }, 503), retryAfter: "5" };
  release(failure);
  await first;
  clock.now += 3_000;
  expect((await limits.answer("energy_price")).retryAfter).toBe("2");
});
