// The team's Data Limits as the gateway tells its members. The service's answer is kept
// briefly (Data Limits counts against the daily quota, and every member's pane asks); members
// asking together share one call. What the gateway bought since it read the answer is taken off
// the answer's remaining requests, so a member never sees an allowance that the team's own
// purchases already moved. A purchase that was under way while the service answered may or may
// not be in its figure: the kept answer errs on the side of less, and is read again once the
// gateway's calls of that product have been over for a moment (one read after a run of
// purchases, not one per member asking), as the engine's ledger does with its own calls.
import type { ProductId } from "../../core/model";
import type { UpstreamAnswer } from "../upstream/upstream-client";
import { retryAfterNow, standsFor } from "../upstream/upstream-refusal";

/**
 * How long the service's failure to a Data Limits call (a 5xx, its 429) answers members instead
 * of a call: each member's engine retries a failed read within seconds, for each product and
 * each look at the Usage tab, and each retry would reach the failing service again.
 */
export const FAILED_LIMITS_HOLD_MS = 30_000;

export interface TeamLimitsSettings {
  /** One Data Limits call of the product to the service. */
  read(product: ProductId): Promise<UpstreamAnswer>;
  now(): number;
  /** How long an answer is reused. */
  maxAgeMs: number;
  /** An unsettled answer is read again once the product's purchases have been over this long. */
  settleQuietMs: number;
  /** A monotonic clock in ms for that wait (performance.now outside tests). */
  elapsed?: () => number;
}

/** The gateway's purchases of a product, counted from its start. */
interface Purchases {
  /** Upstream data calls under way. */
  inFlight: number;
  /** Calls started so far. */
  started: number;
  /** When the last call ended (the monotonic clock). */
  lastEnded: number;
  /** Per dataset: data requests the service charged so far. */
  charged: Map<string, number>;
}

interface Held {
  answer: UpstreamAnswer;
  at: number;
  /** The product's charges when the call was sent: later ones are taken off. */
  chargedBefore: ReadonlyMap<string, number>;
  /** Purchases were under way while the service answered. */
  unsettled: boolean;
}

export class TeamLimits {
  private readonly purchases = new Map<ProductId, Purchases>();
  private readonly held = new Map<ProductId, Held>();
  private readonly reading = new Map<ProductId, Promise<UpstreamAnswer>>();
  /** Per product, the service's last failure and when it came (FAILED_LIMITS_HOLD_MS). */
  private readonly failed = new Map<ProductId, { answer: UpstreamAnswer; at: number }>();

  constructor(private readonly settings: TeamLimitsSettings) {}

  /** An upstream data call of the product goes out. */
  callStarted(product: ProductId): void {
    const purchases = this.purchasesOf(product);
    purchases.inFlight += 1;
    purchases.started += 1;
  }

  /**
   * The call ended; the service charged these datasets (one data request each, none when it
   * failed). `known` false: no answer says what it charged (it may have), so the kept answer
   * is read again once the product's purchases are over.
   */
  callEnded(product: ProductId, charged: readonly string[], known = true): void {
    const purchases = this.purchasesOf(product);
    purchases.inFlight = Math.max(0, purchases.inFlight - 1);
    purchases.lastEnded = this.elapsed();
    for (const dataset of charged) purchases.charged.set(dataset, (purchases.charged.get(dataset) ?? 0) + 1);
    const held = this.held.get(product);
    if (!known && held !== undefined) held.unsettled = true;
  }

  /** The product's Data Limits: a kept answer with later purchases taken off, or the service's. */
  async answer(product: ProductId): Promise<UpstreamAnswer> {
    const held = this.held.get(product);
    if (held !== undefined && this.usable(product, held)) return this.adjusted(product, held);
    const failed = this.failed.get(product);
    if (failed !== undefined) {
      const age = this.settings.now() - failed.at;
      if (age >= 0 && age < standsFor(failed.answer.retryAfter, FAILED_LIMITS_HOLD_MS)) {
        // The service's own Retry-After, counting down: members' add-ins asking again sooner get
        // this answer from memory at no cost, while a wait as long as the hold would keep a
        // refresh's cost preview, which reads Data Limits, waiting that long.
        return { ...failed.answer, retryAfter: retryAfterNow(failed.answer.retryAfter, age) };
      }
      this.failed.delete(product);
    }
    const answer = await this.read(product);
    const now = this.held.get(product);
    return answer.status >= 200 && answer.status <= 299 && now !== undefined
      ? this.adjusted(product, now)
      : answer;
  }

  private usable(product: ProductId, held: Held): boolean {
    // An answer from the future (the clock went back) is as stale as an old one.
    const age = this.settings.now() - held.at;
    if (age < 0 || age >= this.settings.maxAgeMs) return false;
    if (!held.unsettled) return true;
    const purchases = this.purchasesOf(product);
    const over =
      purchases.inFlight === 0 && this.elapsed() - purchases.lastEnded >= this.settings.settleQuietMs;
    return !over;
  }

  private elapsed(): number {
    return (this.settings.elapsed ?? (() => performance.now()))();
  }

  /** One call per product at a time: members asking meanwhile share its answer. */
  private read(product: ProductId): Promise<UpstreamAnswer> {
    const running = this.reading.get(product);
    if (running !== undefined) return running;
    const purchases = this.purchasesOf(product);
    const chargedBefore = new Map(purchases.charged);
    const startedBefore = purchases.started;
    const inFlightBefore = purchases.inFlight;
    const reading = (async () => {
      const answer = await this.settings.read(product);
      if (answer.status >= 500 || answer.status === 429) {
        this.failed.set(product, { answer, at: this.settings.now() });
      } else {
        this.failed.delete(product);
      }
      if (answer.status >= 200 && answer.status <= 299) {
        const unsettled =
          inFlightBefore > 0 ||
          purchases.started > startedBefore ||
          [...purchases.charged].some(([dataset, count]) => count > (chargedBefore.get(dataset) ?? 0));
        this.held.set(product, { answer, at: this.settings.now(), chargedBefore, unsettled });
      }
      return answer;
    })().finally(() => this.reading.delete(product));
    this.reading.set(product, reading);
    return reading;
  }

  /** The kept answer less what the service charged the team since it was asked. */
  private adjusted(product: ProductId, held: Held): UpstreamAnswer {
    const { charged } = this.purchasesOf(product);
    let report: unknown;
    try {
      report = JSON.parse(held.answer.body);
    } catch {
      return held.answer;
    }
    if (typeof report !== "object" || report === null || Array.isArray(report)) return held.answer;
    // fromEntries defines each dataset as its own field: a dataset named "__proto__" stays one.
    const result = Object.fromEntries(
      Object.entries(report).map(([dataset, limits]: [string, unknown]) => {
        const since = (charged.get(dataset) ?? 0) - (held.chargedBefore.get(dataset) ?? 0);
        const remaining: unknown = (limits as { remaining_requests?: unknown } | null)?.remaining_requests;
        if (since <= 0 || typeof remaining !== "number") return [dataset, limits];
        return [dataset, { ...(limits as object), remaining_requests: Math.max(0, remaining - since) }];
      }),
    );
    return { ...held.answer, body: JSON.stringify(result) };
  }

  private purchasesOf(product: ProductId): Purchases {
    let purchases = this.purchases.get(product);
    if (purchases === undefined) {
      purchases = { inFlight: 0, started: 0, lastEnded: -Infinity, charged: new Map() };
      this.purchases.set(product, purchases);
    }
    return purchases;
  }
}
