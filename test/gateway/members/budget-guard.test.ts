import type { ProductId } from "../../../src/core/model";
import { BudgetGuard, type BudgetHold } from "../../../src/gateway/members/budget-guard";
import type { Member } from "../../../src/gateway/store/gateway-store";

const member = (budget: number | null): Member => ({
  email: "bob@example.com",
  admin: false,
  budget,
  blocked: false,
});
const PRODUCT: ProductId = "energy_price";

/** The audit's figure per dataset, answered when the test releases it. */
function heldAudit(used: Record<string, number>) {
  const asked: Array<{ dataset: string; answer: () => void }> = [];
  const purchasedBy = (_member: string, _product: ProductId, dataset: string) =>
    new Promise<number>((resolve) => asked.push({ dataset, answer: () => resolve(used[dataset] ?? 0) }));
  return { asked, purchasedBy };
}

function refusalOf(hold: BudgetHold): string | null {
  return "refusal" in hold ? hold.refusal : null;
}

/** Answers the audit's questions, one a turn, until the hold settles (a hold that never does fails). */
async function answered(
  pending: Promise<BudgetHold>,
  asked: Array<{ answer: () => void }>,
): Promise<BudgetHold> {
  let settled = false;
  void pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; !settled; turn += 1) {
    if (turn > 100) throw new Error("the hold never settled");
    await new Promise((resolve) => setImmediate(resolve));
    asked.shift()?.answer();
  }
  return pending;
}

test.each<[string, number | null, Record<string, number>, Array<[string, number]>, RegExp | null]>([
  ["no budget of their own", null, {}, [["Germany", 500]], null],
  ["within the budget", 10, { Germany: 6 }, [["Germany", 4]], null],
  [
    "over it in one dataset",
    10,
    { Germany: 6, France: 0 },
    [
      ["France", 1],
      ["Germany", 5],
    ],
    /^Quota limit reached for member bob@example\.com: the gateway's budget of 10 data requests a month for dataset 'Germany' has 4 left; this request needs 5\. Ask the gateway's administrator to raise the budget\.$/,
  ],
])("%s", async (_case, budget, used, needed, refused) => {
  const audit = heldAudit(used);
  const guard = new BudgetGuard(audit.purchasedBy, () => 0);
  const hold = await answered(guard.hold(member(budget), PRODUCT, new Map(needed)), audit.asked);
  expect(refusalOf(hold)).toEqual(refused === null ? null : expect.stringMatching(refused));
});

test("what one request holds counts for the next until it is released", async () => {
  const audit = heldAudit({ Germany: 0 });
  const guard = new BudgetGuard(audit.purchasedBy, () => 0);
  const first = guard.hold(member(3), PRODUCT, new Map([["Germany", 2]]));
  const second = guard.hold(member(3), PRODUCT, new Map([["Germany", 2]]));
  // The second check waits for the first: one audit question at a time.
  await new Promise((resolve) => setImmediate(resolve));
  expect(audit.asked).toHaveLength(1);
  const held = await answered(first, audit.asked);
  expect(refusalOf(held)).toBeNull();
  expect(refusalOf(await answered(second, audit.asked))).toMatch(/has 1 left; this request needs 2\./);

  if ("release" in held) {
    held.release();
    held.release();
  }
  const third = await answered(guard.hold(member(3), PRODUCT, new Map([["Germany", 3]])), audit.asked);
  expect(refusalOf(third)).toBeNull();
});

test("a failed audit read refuses nothing it should not and frees the member's turn", async () => {
  let fail = true;
  const guard = new BudgetGuard(
    async () => {
      if (fail) throw new Error("database gone");
      return 0;
    },
    () => 0,
  );
  await expect(guard.hold(member(3), PRODUCT, new Map([["Germany", 1]]))).rejects.toThrow("database gone");
  fail = false;
  expect(refusalOf(await guard.hold(member(3), PRODUCT, new Map([["Germany", 3]])))).toBeNull();
});
