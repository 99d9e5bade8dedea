// A member's budget per dataset for an allowance period (members/allowance-period.ts), checked and then held for the request's purchases
// until they are audited. Checking the audit alone would let concurrent requests of one member
// (an add-in keeps many calls in flight, 40 codes each, and a load balancer spreads them over
// instances) all see the same figure and together buy past the budget. The holds live in the
// store, shared by every instance (store/sql-budget-holds.ts); within an instance one member's
// checks also run one at a time, so they queue here rather than on database connections.
import type { ProductId } from "../../core/model";
import type { BudgetHolds, Member } from "../store/gateway-store";
import { releaseDate, type AllowancePeriod } from "./allowance-period";

/**
 * Each code's part of a hold is settled once its purchase is audited (or cost nothing); the
 * hold is released once its request's purchases have their answers and are audited (a
 * purchase whose audit row waits to be written keeps it until then: routes/data-routes.ts).
 * Releasing never fails: a hold the store did not delete is reported and expires.
 */
export type BudgetHold =
  | { refusal: string }
  | {
      release: () => Promise<void>;
      /**
       * One of the request's codes of `dataset` is in the audit now, or cost nothing: it stops
       * counting in the hold (else it would count twice until the request's last purchase ends).
       * Never fails: a part the store did not take off counts until the release.
       */
      settle: (dataset: string) => Promise<void>;
    };

const NO_HOLD: BudgetHold = { release: () => Promise.resolve(), settle: () => Promise.resolve() };

/**
 * How long a hold counts should it never be released (its instance crashed, or the database
 * refused the release): longer than any request takes (a purchase waits for its call's turn, up
 * to 130 s for the service, and three more tries after a rate refusal), short enough that such
 * holds do not keep a member refused for long.
 */
export const HOLD_LIFETIME_MS = 30 * 60 * 1000;

export class BudgetGuard {
  private readonly turns = new Map<string, Promise<unknown>>();
  /** Holds taken here and not yet released, each with its release. */
  private readonly live = new Map<string, () => Promise<void>>();

  constructor(
    private readonly holds: BudgetHolds,
    private readonly now: () => number,
    /** The allowance period that holds an instant: budgets count its purchases. */
    private readonly periodAt: (at: Date) => AllowancePeriod,
    /** A release the store refused (the hold counts until it expires). */
    private readonly releaseFailed: (error: unknown) => void,
  ) {}

  /**
   * Holds `needed` (codes to buy per dataset) against the member's budget; the refusal names
   * the budget when they do not fit. Release the hold once the purchases have their answers and
   * are audited.
   */
  hold(member: Member, product: ProductId, needed: ReadonlyMap<string, number>): Promise<BudgetHold> {
    const budget = member.budget;
    if (budget === null || needed.size === 0) return Promise.resolve(NO_HOLD);
    return this.inTurn(member.email, async () => {
      const at = this.now();
      const period = this.periodAt(new Date(at));
      const outcome = await this.holds.hold({
        member: member.email,
        product,
        budget,
        needed,
        at: new Date(at),
        period,
        expiresAt: new Date(at + HOLD_LIFETIME_MS),
      });
      if ("over" in outcome) {
        const { dataset, left, needed: count } = outcome.over;
        return {
          refusal:
            // The date early: a cell too narrow for the whole text cuts its middle.
            `Quota limit reached for member ${member.email}: until ${releaseDate(period)} the gateway's budget of ` +
            `${budget} data requests for dataset '${dataset}' has ${left} left; this request needs ${count}. ` +
            "Ask the gateway's administrator to raise the budget.",
        };
      }
      const id = outcome.held;
      let released: Promise<void> | undefined;
      const release = (): Promise<void> =>
        (released ??= this.holds.release(id).then(
          () => void this.live.delete(id),
          (error: unknown) => {
            this.live.delete(id);
            this.releaseFailed(error);
          },
        ));
      this.live.set(id, release);
      const settle = (dataset: string): Promise<void> =>
        released !== undefined
          ? Promise.resolve()
          : this.holds.settle(id, dataset, 1).catch((error: unknown) => this.releaseFailed(error));
      return { release, settle };
    });
  }

  /**
   * Releases every hold still taken here: the gateway is stopping, and requests still waiting
   * for their purchases will get no answer, so what they held must not count for the member
   * until it expires.
   */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((release) => release()));
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
