import type { ProductId } from "../../../src/core/model";
import { allowancePeriodAt } from "../../../src/gateway/members/allowance-period";
import { BudgetGuard, HOLD_LIFETIME_MS, type BudgetHold } from "../../../src/gateway/members/budget-guard";
import type {
  BudgetHoldOutcome,
  BudgetHoldRequest,
  BudgetHolds,
  Member,
} from "../../../src/gateway/store/gateway-store";

const member = (budget: number | null): Member => ({
  email: "bob@example.com",
  admin: false,
  budget,
  blocked: false,
});
const PRODUCT: ProductId = "energy_price";
const NOW = Date.UTC(2026, 10, 29, 12);

/** The store's holds, each check answered when the test says so; releases are recorded. */
function heldStore() {
  const asked: Array<{ request: BudgetHoldRequest; answer: (outcome: BudgetHoldOutcome | Error) => void }> =
    [];
  const released: string[] = [];
  const settled: Array<[string, string, number]> = [];
  /** Releases the store refuses, by hold id. */
  const refused = new Set<string>();
  const holds: BudgetHolds = {
    hold: (request) =>
      new Promise((resolve, reject) =>
        asked.push({
          request,
          answer: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
        }),
      ),
    release: async (id) => {
      if (refused.has(id)) throw new Error("database gone");
      released.push(id);
    },
    settle: async (id, dataset, requests) => {
      if (refused.has(id)) throw new Error("database gone");
      settled.push([id, dataset, requests]);
    },
    heldBy: () => Promise.reject(new Error("the guard does not read holds")),
  };
  return { asked, released, settled, refused, holds };
}

/** A guard over the store, recording the releases it reports as failed. */
function guardOver(store: ReturnType<typeof heldStore>) {
  const failures: unknown[] = [];
  const guard = new BudgetGuard(
    store.holds,
    () => NOW,
    (at) => allowancePeriodAt(at, 3),
    (error) => failures.push(error),
  );
  return { guard, failures };
}

/** Lets the guard's promises run (a few turns of the event loop). */
const turns = async (count = 5): Promise<void> => {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

function refusalOf(hold: BudgetHold): string | null {
  return "refusal" in hold ? hold.refusal : null;
}

test.each<[string, BudgetHoldOutcome, RegExp | null]>([
  ["held by the store", { held: "hold-1" }, null],
  [
    "over the budget in one dataset",
    { over: { dataset: "Germany", left: 4, needed: 5 } },
    /^Quota limit reached for member bob@example\.com: until 2026-12-03 the gateway's budget of 10 data requests for dataset 'Germany' has 4 left; this request needs 5\. Ask the gateway's administrator to raise the budget\.$/,
  ],
])("%s", async (_case, outcome, refused) => {
  const store = heldStore();
  const { guard } = guardOver(store);
  const needed = new Map([
    ["France", 1],
    ["Germany", 5],
  ]);
  const pending = guard.hold(member(10), PRODUCT, needed);
  await turns();
  expect(store.asked.map((entry) => entry.request)).toEqual([
    {
      member: "bob@example.com",
      product: PRODUCT,
      budget: 10,
      needed,
      at: new Date(NOW),
      // The purchases of November's allowance period count: from its release (2026-11-04, 06:00
      // US Central) to December's.
      period: {
        name: "2026-11",
        start: new Date("2026-11-04T12:00:00.000Z"),
        end: new Date("2026-12-03T12:00:00.000Z"),
      },
      expiresAt: new Date(NOW + HOLD_LIFETIME_MS),
    },
  ]);
  store.asked[0]?.answer(outcome);
  expect(refusalOf(await pending)).toEqual(refused === null ? null : expect.stringMatching(refused));
});

test.each<[string, number | null, Array<[string, number]>]>([
  ["a member without a budget of their own", null, [["Germany", 500]]],
  ["a request that buys nothing", 10, []],
])("%s holds nothing in the store", async (_case, budget, needed) => {
  const store = heldStore();
  const hold = await guardOver(store).guard.hold(member(budget), PRODUCT, new Map(needed));
  expect(refusalOf(hold)).toBeNull();
  if ("release" in hold) await hold.release();
  expect(store.asked).toHaveLength(0);
  expect(store.released).toHaveLength(0);
});

test("a hold's codes are settled one at a time until it is released; a settle the store refuses is reported, not thrown", async () => {
  const store = heldStore();
  const { guard, failures } = guardOver(store);
  const pending = guard.hold(member(10), PRODUCT, new Map([["Germany", 3]]));
  await turns();
  store.asked[0]?.answer({ held: "hold-1" });
  const hold = await pending;
  if (!("settle" in hold)) throw new Error("refused");
  await hold.settle("Germany");
  store.refused.add("hold-1");
  await hold.settle("Germany");
  expect(failures).toHaveLength(1);
  store.refused.delete("hold-1");
  await hold.release();
  await hold.settle("Germany");
  expect(store.settled).toEqual([["hold-1", "Germany", 1]]);
  expect(store.released).toEqual(["hold-1"]);
});

test("one member's checks reach the store one at a time, and a hold is released once", async () => {
  const store = heldStore();
  const { guard } = guardOver(store);
  const first = guard.hold(member(3), PRODUCT, new Map([["Germany", 2]]));
  const second = guard.hold(member(3), PRODUCT, new Map([["Germany", 2]]));
  await turns();
  expect(store.asked).toHaveLength(1);
  store.asked[0]?.answer({ held: "hold-1" });
  const held = await first;
  await turns();
  expect(store.asked).toHaveLength(2);
  store.asked[1]?.answer({ over: { dataset: "Germany", left: 1, needed: 2 } });
  expect(refusalOf(await second)).toMatch(
    /until 2026-12-03 the gateway's budget of 3 data requests for dataset 'Germany' has 1 left; this request needs 2\./,
  );

  if (!("release" in held)) throw new Error("the first request was refused");
  await Promise.all([held.release(), held.release()]);
  expect(store.released).toEqual(["hold-1"]);
});

test("a failed check in the store is passed on and frees the member's turn", async () => {
  const store = heldStore();
  const { guard } = guardOver(store);
  const failed = guard.hold(member(3), PRODUCT, new Map([["Germany", 1]]));
  const next = guard.hold(member(3), PRODUCT, new Map([["Germany", 3]]));
  await turns();
  store.asked[0]?.answer(new Error("database gone"));
  await expect(failed).rejects.toThrow("database gone");
  await turns();
  store.asked[1]?.answer({ held: "hold-2" });
  expect(refusalOf(await next)).toBeNull();
});

test("a release the store refuses is reported, not thrown: the hold expires by itself", async () => {
  const store = heldStore();
  const { guard, failures } = guardOver(store);
  const pending = guard.hold(member(3), PRODUCT, new Map([["Germany", 1]]));
  await turns();
  store.refused.add("hold-1");
  store.asked[0]?.answer({ held: "hold-1" });
  const held = await pending;
  if (!("release" in held)) throw new Error("refused");
  await expect(held.release()).resolves.toBeUndefined();
  expect(failures).toEqual([new Error("database gone")]);
  expect(store.released).toEqual([]);
});

test("releaseAll (the gateway stopping) releases the holds still taken, once each", async () => {
  const store = heldStore();
  const { guard } = guardOver(store);
  const take = async (email: string, id: string) => {
    const pending = guard.hold({ ...member(3), email }, PRODUCT, new Map([["Germany", 1]]));
    await turns();
    store.asked.at(-1)?.answer({ held: id });
    const held = await pending;
    if (!("release" in held)) throw new Error("refused");
    return held;
  };
  const first = await take("ann@example.com", "hold-1");
  await take("bob@example.com", "hold-2");
  await take("cy@example.com", "hold-3");
  await first.release();
  await guard.releaseAll();
  await guard.releaseAll();
  expect(store.released).toEqual(["hold-1", "hold-2", "hold-3"]);
});
