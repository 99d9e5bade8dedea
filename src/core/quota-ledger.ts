// Local bookkeeping of the per-dataset monthly allowances (docs/service.md §8.2, rules 1-4). Data
// Limits is fetched rarely; between fetches the ledger keeps two counts apart:
// - charged: codes of calls the service answered with 2xx (it charges those), subtracted
//   from the remaining allowance;
// - unconfirmed: codes sent whose charge is not known: still in flight, or their call got
//   no answer (refused connection, timeout), which the service may or may not have
//   counted. They are not subtracted, but a call that could exceed the allowance if they
//   were charged is not sent (an exhausted allowance would fail the whole call). The next
//   Data Limits answer (which costs no data request) settles them.
// A call the service answered with an error was not charged: its codes are given back.
// Everything resets at the release.
// A Data Limits answer read while calls of its product were under way cannot say whether the
// service counted them before it answered: the ledger takes the answer minus what was
// confirmed meanwhile (the side of sending less) and calls the reading unsettled, so it is read
// again once the product's calls are over (needsSettling; data-limits-keeper.ts waits for them
// to stay over) instead of showing a figure that a charge may have moved twice or not at all.
import { PcdError } from "./errors";
import type { DataLimits, DatasetAllowance, ProductId, ServiceEnvironment } from "./model";

export interface QuotaLedgerOptions {
  now: () => number;
  /** Epoch ms of the start of the latest monthly release (allowances reset then). */
  latestReleaseStart: () => number;
  /** Epoch ms of the next release, for messages. */
  nextRelease: () => number;
  /**
   * True while a 2xx answer need not have cost anything: a team gateway serves what it keeps
   * at no charge to the team or the member, and buys only the rest, and its answers do not say
   * which. Its Data Limits (the service's figure, less what it bought since) is then the only
   * count: answers take nothing off the reading, which is read again after a run of calls, and
   * no call is refused for a figure the gateway may not need.
   */
  answersMayBeFree?: () => boolean;
}

interface ProductLimits {
  limits: DataLimits;
  fetchedAt: number;
  /** Per dataset: codes of calls that ended without an answer (charged or not, unknown). */
  unknown: Map<string, number>;
  /** Read while calls of the product were under way: the answer may miss or hold their charges. */
  unsettled: boolean;
  /**
   * A team gateway refused the member's budget after the reset this reading named: the reading
   * is an earlier period's, or the gateway's clock is behind this one's. Read again before a call.
   */
  outdated: boolean;
}

/**
 * What the ledger has seen of a product's calls, counted from the session's start and kept
 * through every Data Limits answer (and before the first): a reading compares two of them.
 */
interface CallActivity {
  /** Per dataset: codes admitted into calls that have not ended yet. */
  inFlight: Map<string, number>;
  admitted: number;
  /** Per dataset: codes the service answered with 2xx. */
  confirmed: Map<string, number>;
  /** Per dataset: codes of calls that ended without an answer. */
  unanswered: Map<string, number>;
}

/** The product's calls as they stood when a Data Limits call was sent (readStarted). */
export interface LimitsReading {
  readonly admitted: number;
  readonly confirmed: ReadonlyMap<string, number>;
  readonly unanswered: ReadonlyMap<string, number>;
  readonly inFlight: number;
}

interface Block {
  /** environment|product of the refused call. */
  productKey: string;
  dataset: string;
  /** The allowances' last reset when the service refused; the block lifts when it moves. */
  releaseStart: number;
  /** The one request blocked (as block() was given it); absent: the whole dataset. */
  request?: string;
  error: PcdError;
  /**
   * A team gateway's refusal for the member's own budget, which resets at the release as the
   * team's allowance does, and which an administrator may raise: the member's remaining budget
   * the ledger knew when it came (null: none read yet), and when the gateway said the budget
   * comes back (null: not said, or not after the refusal). The gateway places the release by
   * its own setting, which may differ from this engine's.
   */
  memberBudget?: { remaining: number | null; resetsAt: number | null };
}

export interface Admission<T> {
  admitted: T[];
  refused: Array<{ item: T; error: PcdError }>;
}

function productKey(environment: ServiceEnvironment, product: ProductId): string {
  return `${environment}|${product}`;
}

function datasetKey(environment: ServiceEnvironment, product: ProductId, dataset: string): string {
  return `${environment}|${product}|${dataset}`;
}

/** Adds delta to a per-dataset count, dropping counts that reach zero. */
function bump(counts: Map<string, number>, dataset: string, delta: number): void {
  const next = (counts.get(dataset) ?? 0) + delta;
  if (next > 0) counts.set(dataset, next);
  else counts.delete(dataset);
}

/** A block of one request: the dataset's key and the request, apart as no dataset name can hold a NUL. */
function requestBlockKey(datasetBlockKey: string, request: string): string {
  return `${datasetBlockKey}\u0000${request}`;
}

/**
 * How soon a member-budget block made after the reset its reading named is looked at again
 * (QuotaLedger.memberBudgetBlock): longer than clocks differ, short enough not to keep a
 * budget that came back refused for long.
 */
export const MEMBER_BUDGET_RECHECK_MS = 60_000;

function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export class QuotaLedger {
  private readonly products = new Map<string, ProductLimits>();
  private readonly blocks = new Map<string, Block>();
  private readonly activity = new Map<string, CallActivity>();
  /** When the engine last saw a sign that the allowances may have reset (a release in the catalog). */
  private resetSeenAt = -Infinity;

  constructor(private readonly options: QuotaLedgerOptions) {}

  private answersMayBeFree(): boolean {
    return this.options.answersMayBeFree?.() === true;
  }

  /** Marks a Data Limits call about to be sent: record() compares the product's calls with now. */
  readStarted(environment: ServiceEnvironment, product: ProductId): LimitsReading {
    const key = productKey(environment, product);
    const activity = this.activityOf(key);
    return {
      admitted: activity.admitted,
      confirmed: new Map(activity.confirmed),
      unanswered: new Map(activity.unanswered),
      inFlight: [...activity.inFlight.values()].reduce((sum, count) => sum + count, 0),
    };
  }

  /**
   * Records a Data Limits answer (it replaces local decrements: the service is the truth).
   * `reading` (from readStarted when the call was sent) lets the calls that moved meanwhile
   * be accounted for; without it the answer is taken as it is. Returns the requests (as block()
   * was given them) whose member-budget block the answer lifted: their cells may ask again.
   */
  record(
    environment: ServiceEnvironment,
    product: ProductId,
    limits: DataLimits,
    reading?: LimitsReading,
  ): string[] {
    const key = productKey(environment, product);
    const recorded = structuredClone(limits);
    const unknown = new Map<string, number>();
    let unsettled = false;
    if (reading) {
      const activity = this.activityOf(key);
      // Charges confirmed while the answer was on its way may be missing from it.
      const free = this.answersMayBeFree();
      for (const [dataset, count] of activity.confirmed) {
        const during = count - (reading.confirmed.get(dataset) ?? 0);
        const allowance = allowanceOf(recorded, dataset);
        if (during <= 0) continue;
        unsettled = true;
        if (!allowance || free) continue;
        allowance.remaining = Math.max(0, allowance.remaining - during);
        if (allowance.member) allowance.member.remaining = Math.max(0, allowance.member.remaining - during);
      }
      // Calls that ended unanswered meanwhile stay unknown: the answer may predate them.
      for (const [dataset, count] of activity.unanswered) {
        const during = count - (reading.unanswered.get(dataset) ?? 0);
        if (during > 0) unknown.set(dataset, during);
      }
      unsettled ||= reading.inFlight > 0 || activity.admitted > reading.admitted;
    }
    // Calls still in flight are not in the answer yet (or are, if the service counted them
    // first: the ledger errs on the side of sending less, and the reading is unsettled).
    // Calls that ended unanswered before it was sent are settled by it: whatever the service
    // charged for them is in its numbers.
    this.products.set(key, {
      limits: recorded,
      fetchedAt: this.options.now(),
      unknown,
      unsettled,
      outdated: false,
    });
    return this.liftMemberBudgetBlocks(environment, product, recorded);
  }

  /**
   * A member's budget block lifts when a Data Limits answer shows more of the budget left than
   * when the gateway refused (a raised budget, or a release the add-in's calendar does not
   * place where the gateway's does): the cells may ask again. Otherwise it takes the moment the
   * answer says the budget comes back, when that is ahead. Returns the requests lifted.
   */
  private liftMemberBudgetBlocks(
    environment: ServiceEnvironment,
    product: ProductId,
    limits: DataLimits,
  ): string[] {
    const now = this.options.now();
    const scope = productKey(environment, product);
    const lifted: string[] = [];
    for (const [key, block] of this.blocks) {
      if (block.productKey !== scope || block.memberBudget === undefined) continue;
      const member = allowanceOf(limits, block.dataset)?.member;
      if (member === undefined) continue;
      if (member.remaining > (block.memberBudget.remaining ?? 0)) {
        this.blocks.delete(key);
        if (block.request !== undefined) lifted.push(block.request);
      } else if (member.resetsAt !== undefined && member.resetsAt > now)
        block.memberBudget = { remaining: member.remaining, resetsAt: member.resetsAt };
    }
    return lifted;
  }

  /**
   * The reading was unsettled and the product's calls are over: Data Limits should be read
   * again for the service's own figure (no data call waits for it).
   */
  needsSettling(environment: ServiceEnvironment, product: ProductId): boolean {
    const key = productKey(environment, product);
    return this.products.get(key)?.unsettled === true && this.activityOf(key).inFlight.size === 0;
  }

  /** The limits as known locally (decremented since the fetch), or undefined. */
  limitsOf(environment: ServiceEnvironment, product: ProductId): DataLimits | undefined {
    const known = this.products.get(productKey(environment, product));
    return known ? structuredClone(known.limits) : undefined;
  }

  /** Epoch ms of the Data Limits answer the ledger holds, or null. */
  fetchedAt(environment: ServiceEnvironment, product: ProductId): number | null {
    return this.products.get(productKey(environment, product))?.fetchedAt ?? null;
  }

  /**
   * The allowances may have reset now: a release the calendar does not know of (one off
   * schedule, or published hours after release day began) shows first in the catalog.
   * Readings taken before are then no longer current, and blocks lift.
   */
  resetSeen(at: number): void {
    this.resetSeenAt = Math.max(this.resetSeenAt, at);
  }

  /**
   * Known and fetched after the allowances last reset (the latest release's start, or a
   * release seen since: resetSeen), and no call ended unanswered since: those are
   * reconciled by reading Data Limits again.
   */
  isCurrent(environment: ServiceEnvironment, product: ProductId, maxAgeMs = Infinity): boolean {
    const known = this.products.get(productKey(environment, product));
    if (!known || known.unknown.size > 0 || known.outdated) return false;
    const { fetchedAt } = known;
    return fetchedAt >= this.resetAt() && this.options.now() - fetchedAt < maxAgeMs;
  }

  /** True when the reading the ledger holds was taken before the allowances last reset. */
  readBeforeReset(environment: ServiceEnvironment, product: ProductId): boolean {
    const key = productKey(environment, product);
    return this.products.has(key) && this.sinceReset(key) === undefined;
  }

  /** The product's reading, when it was taken after the allowances last reset. */
  private sinceReset(key: string): ProductLimits | undefined {
    const known = this.products.get(key);
    return known !== undefined && known.fetchedAt >= this.resetAt() ? known : undefined;
  }

  /** The latest instant the allowances reset, as far as the engine knows. */
  private resetAt(): number {
    return Math.max(this.options.latestReleaseStart(), this.resetSeenAt);
  }

  /**
   * What remains after the charges the service confirmed (unconfirmed codes not subtracted):
   * through a gateway that gives the member a budget, the smaller of the team's and the member's.
   */
  remaining(environment: ServiceEnvironment, product: ProductId, dataset: string): number | null {
    const allowance = allowanceOf(this.sinceReset(productKey(environment, product))?.limits, dataset);
    if (allowance === undefined) return null;
    return allowance.member ? Math.min(allowance.remaining, allowance.member.remaining) : allowance.remaining;
  }

  /** Codes sent whose charge is not confirmed: in flight, or their call got no answer. */
  unconfirmed(environment: ServiceEnvironment, product: ProductId, dataset: string): number {
    const key = productKey(environment, product);
    return (
      (this.activityOf(key).inFlight.get(dataset) ?? 0) + (this.products.get(key)?.unknown.get(dataset) ?? 0)
    );
  }

  /**
   * Splits items into those the allowances can pay for (and charges them) and those
   * refused with a quota error naming the dataset. Sandbox has no allowances.
   */
  admit<T>(
    environment: ServiceEnvironment,
    product: ProductId,
    items: readonly T[],
    datasetOf: (item: T) => string,
    requestOf?: (item: T) => string,
  ): Admission<T> {
    const admission: Admission<T> = { admitted: [], refused: [] };
    // A reading from before the allowances reset says nothing of them now: the service judges.
    const known = this.sinceReset(productKey(environment, product));
    for (const item of items) {
      const dataset = datasetOf(item);
      const blocked = this.blockOf(environment, product, dataset, requestOf?.(item));
      if (blocked) {
        admission.refused.push({ item, error: blocked });
        continue;
      }
      const allowance =
        environment === "live" && !this.answersMayBeFree() ? allowanceOf(known?.limits, dataset) : undefined;
      // Unconfirmed codes may turn out charged: they count against what may still be sent.
      const unconfirmed = this.unconfirmed(environment, product, dataset);
      if (allowance && allowance.remaining - unconfirmed <= 0) {
        admission.refused.push({
          item,
          error: this.exhausted(dataset, allowance.remaining - unconfirmed, allowance.total),
        });
        continue;
      }
      const activity = this.activityOf(productKey(environment, product));
      bump(activity.inFlight, dataset, 1);
      activity.admitted += 1;
      admission.admitted.push(item);
    }
    return admission;
  }

  /** The service answered 2xx: these codes are charged. */
  confirm(environment: ServiceEnvironment, product: ProductId, datasets: readonly string[]): void {
    const key = productKey(environment, product);
    const { confirmed, inFlight } = this.activityOf(key);
    for (const dataset of datasets) {
      bump(confirmed, dataset, 1);
      bump(inFlight, dataset, -1);
    }
    const known = this.products.get(key);
    if (!known) return;
    if (this.answersMayBeFree()) {
      // What the answer cost is the gateway's to say: its Data Limits is read again once the
      // product's calls are over (needsSettling).
      known.unsettled = true;
      return;
    }
    for (const dataset of datasets) {
      const allowance = allowanceOf(known.limits, dataset);
      if (allowance) allowance.remaining = Math.max(0, allowance.remaining - 1);
      // A gateway charges a member's budget for what it buys, as the service charges the team.
      if (allowance?.member) allowance.member.remaining = Math.max(0, allowance.member.remaining - 1);
    }
  }

  /** The service answered with an error, or the call never left: nothing was charged. */
  refund(environment: ServiceEnvironment, product: ProductId, datasets: readonly string[]): void {
    const { inFlight } = this.activityOf(productKey(environment, product));
    for (const dataset of datasets) bump(inFlight, dataset, -1);
  }

  /**
   * The call got no answer (refused connection, timeout): the service may have charged it.
   * The codes stay unconfirmed until the next Data Limits answer settles them.
   */
  unanswered(environment: ServiceEnvironment, product: ProductId, datasets: readonly string[]): void {
    const key = productKey(environment, product);
    const { unanswered, inFlight } = this.activityOf(key);
    for (const dataset of datasets) {
      bump(unanswered, dataset, 1);
      bump(inFlight, dataset, -1);
    }
    const known = this.products.get(key);
    if (!known) return;
    for (const dataset of datasets) {
      bump(known.unknown, dataset, 1);
    }
  }

  /**
   * After the service said the dataset's quota is reached: no more calls until the next
   * release (or a new sign-in, which clears the ledger). A team gateway's refusal for the
   * member's own budget (cause.details.memberBudget) blocks this engine alike, but the team's
   * allowance is not used up: its numbers stay, and the cells say the gateway's words.
   * `request`: the block is of that request alone (an operation of a request key, as the data
   * limits keeper names it). Through a team gateway, a refusal stops only what it must buy (it
   * serves what it keeps at no cost to the team or the member); a call refused there is halved
   * down to the requests refused alone (batcher.ts), and each is blocked.
   */
  block(
    environment: ServiceEnvironment,
    product: ProductId,
    dataset: string,
    cause?: PcdError,
    request?: string,
  ): PcdError {
    const known = this.products.get(productKey(environment, product));
    const allowance = allowanceOf(known?.limits, dataset);
    const memberBudget = cause?.details.memberBudget === true;
    const error = memberBudget
      ? new PcdError("quota", cause.message, { ...cause.details, dataset })
      : this.teamExhausted(dataset, allowance, cause);
    const key = datasetKey(environment, product, dataset);
    this.blocks.set(request === undefined ? key : requestBlockKey(key, request), {
      productKey: productKey(environment, product),
      dataset,
      releaseStart: this.resetAt(),
      ...(request === undefined ? {} : { request }),
      error,
      ...(memberBudget ? { memberBudget: this.memberBudgetBlock(known, allowance) } : {}),
    });
    return error;
  }

  /**
   * What a member-budget block keeps: the budget left that the reading showed, and when the
   * gateway gives the budget back. A refusal after the moment the reading named (the reading is
   * an earlier period's, or the gateway's clock is behind this one's) would otherwise keep the
   * block until this engine's release: the block is looked at again shortly instead.
   */
  private memberBudgetBlock(
    known: ProductLimits | undefined,
    allowance: DatasetAllowance | undefined,
  ): NonNullable<Block["memberBudget"]> {
    const now = this.options.now();
    const named = allowance?.member?.resetsAt;
    const remaining = allowance?.member?.remaining ?? null;
    if (named !== undefined && named > now) return { remaining, resetsAt: named };
    // The reading does not say when this budget comes back (it predates the budget, or its
    // gateway does not say), or says a moment already past: it is read again before the next
    // call, and what it says then is taken (liftMemberBudgetBlocks).
    if (known !== undefined) known.outdated = true;
    return { remaining, resetsAt: named === undefined ? null : now + MEMBER_BUDGET_RECHECK_MS };
  }

  /** Why the dataset (or, given, this request of it) may not be asked for now; undefined: it may. */
  blockOf(
    environment: ServiceEnvironment,
    product: ProductId,
    dataset: string,
    request?: string,
  ): PcdError | undefined {
    const key = datasetKey(environment, product, dataset);
    return (
      this.liveBlock(key) ??
      (request === undefined ? undefined : this.liveBlock(requestBlockKey(key, request)))
    );
  }

  /** The block kept under `key` unless it has lifted (then it goes). */
  private liveBlock(key: string): PcdError | undefined {
    const block = this.blocks.get(key);
    if (!block) return undefined;
    const budgetBack =
      block.memberBudget !== undefined &&
      block.memberBudget.resetsAt !== null &&
      this.options.now() >= block.memberBudget.resetsAt;
    if (block.releaseStart !== this.resetAt() || budgetBack) {
      this.blocks.delete(key);
      return undefined;
    }
    return block.error;
  }

  private teamExhausted(
    dataset: string,
    allowance: DataLimits[string] | undefined,
    cause: PcdError | undefined,
  ): PcdError {
    if (allowance) allowance.remaining = 0;
    return this.exhausted(dataset, 0, allowance?.total ?? null, cause);
  }

  clear(): void {
    this.products.clear();
    this.blocks.clear();
    this.activity.clear();
  }

  private activityOf(key: string): CallActivity {
    let activity = this.activity.get(key);
    if (!activity) {
      activity = { inFlight: new Map(), admitted: 0, confirmed: new Map(), unanswered: new Map() };
      this.activity.set(key, activity);
    }
    return activity;
  }

  private exhausted(dataset: string, remaining: number, total: number | null, cause?: PcdError): PcdError {
    const counts = total === null ? "" : ` (${Math.max(0, remaining)} of ${total} left)`;
    return new PcdError(
      "quota",
      `Monthly allowance used up for dataset '${dataset}'${counts}; it resets at the next monthly release, ` +
        `${formatDate(this.options.nextRelease())}.`,
      { ...cause?.details, dataset },
    );
  }
}

/**
 * A dataset's allowance: own entries only. Dataset names are the service's text, so a
 * dataset named "constructor" must not find Object.prototype's.
 */
function allowanceOf(limits: DataLimits | undefined, dataset: string): DataLimits[string] | undefined {
  return limits !== undefined && Object.hasOwn(limits, dataset) ? limits[dataset] : undefined;
}
