// A member's monthly budget per dataset, checked and then held for the request's purchases
// until they are audited. Checking the audit alone would let concurrent requests of one member
// (an add-in keeps many calls in flight, 40 codes each) all see the same figure and together
// buy past the budget. Within one gateway instance the check and the hold of one member run one
// at a time, and a held code counts as used until its request has its answer (by then its
// purchase, if any, is in the audit). Instances sharing a database hold separately: each stays
// within the budget, together they may pass it by what is in flight at once.
import type { ProductId } from "../../core/model";
import type { Member } from "../store/gateway-store";

/** Data requests charged so far this month for a member's purchases in a dataset (the audit). */
export type PurchasedBy = (member: string, product: ProductId, dataset: string, at: Date) => Promise<number>;

export type BudgetHold = { refusal: string } | { release: () => void };

const NO_HOLD: BudgetHold = { release: () => undefined };

export class BudgetGuard {
  private readonly held = new Map<string, number>();
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly purchasedBy: PurchasedBy,
    private readonly now: () => number,
  ) {}

  /**
   * Holds `needed` (codes to buy per dataset) against the member's budget; the refusal names
   * the budget when they do not fit. Release the hold once the purchases have their answers.
   */
  hold(member: Member, product: ProductId, needed: ReadonlyMap<string, number>): Promise<BudgetHold> {
    const budget = member.budget;
    if (budget === null || needed.size === 0) return Promise.resolve(NO_HOLD);
    return this.inTurn(member.email, async () => {
      const at = new Date(this.now());
      for (const [dataset, count] of needed) {
        const used =
          (await this.purchasedBy(member.email, product, dataset, at)) +
          this.heldFor(member, product, dataset);
        if (used + count > budget) {
          return {
            refusal:
              `Quota limit reached for member ${member.email}: the gateway's budget of ${budget} data requests ` +
              `a month for dataset '${dataset}' has ${Math.max(0, budget - used)} left; this request needs ${count}. ` +
              "Ask the gateway's administrator to raise the budget.",
          };
        }
      }
      for (const [dataset, count] of needed) this.add(member, product, dataset, count);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          for (const [dataset, count] of needed) this.add(member, product, dataset, -count);
        },
      };
    });
  }

  private heldFor(member: Member, product: ProductId, dataset: string): number {
    return this.held.get(holdKey(member, product, dataset)) ?? 0;
  }

  private add(member: Member, product: ProductId, dataset: string, count: number): void {
    const key = holdKey(member, product, dataset);
    const total = (this.held.get(key) ?? 0) + count;
    if (total > 0) this.held.set(key, total);
    else this.held.delete(key);
  }

  /** Runs `work` after the member's earlier checks (one member's checks never interleave). */
  private inTurn<T>(member: string, work: () => Promise<T>): Promise<T> {
    const before = this.turns.get(member) ?? Promise.resolve();
    const run = before.then(work, work);
    const done = run.catch(() => undefined);
    this.turns.set(member, done);
    void done.then(() => {
      if (this.turns.get(member) === done) this.turns.delete(member);
    });
    return run;
  }
}

function holdKey(member: Member, product: ProductId, dataset: string): string {
  return JSON.stringify([member.email, product, dataset]);
}
