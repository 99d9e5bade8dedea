// Buys what members need from the service, once for the team. A key already being bought is
// not bought again: its requesters wait for the one purchase. Keys of one product, operation
// and data type wait for each other while members' requests keep coming: until no key of any
// group came for the idle window (longer while several members ask than while one alone does)
// and the requests that had come in by then have reached the queue, or until the first of them
// has waited the longest wait. A member's engine asks for Values and History, and for each
// product, in calls of their own, so a quiet group says little about whether its next codes are
// on their way. Then the keys wait for the operation's turn at the service's rate, and only then
// are taken into a call of up to 40 codes (one data type per call, as the service requires; a
// code at most once per call): every key that arrived while the call waited for its turn rides
// in it. Forty waiting codes go at their turn at once while one member alone asks; while several
// ask, a full call goes at once only when another full call's worth would still wait behind it,
// so the last forty wait with the part-filled rest (see fullCallsAt). A cold morning, members
// opening workbooks over a few seconds, thus fills calls instead of sending a part-filled one at
// every turn.
// Before a call the gateway takes the keys' locks and looks at the store again, so two gateway
// instances on one database never buy the same key twice.
// When the gateway stops, the queue sends no more calls and waits for the purchases already out
// (STOP_WAIT_MS at most) before the store may close: a call out may be charged, and its audit row
// is what makes the usage report equal the service's charge.
import type { DataType, ProductId } from "../../core/model";
import { MAX_CODES_PER_CALL } from "../../core/service-client";
import { codesSegment, type RequestedCode } from "../codes-request";
import type { DataOperation } from "../gateway-operation";
import type { GatewayStore, Purchase } from "../store/gateway-store";
import {
  HISTORY_TIMEOUT_MS,
  UpstreamSignInError,
  UpstreamTimeout,
  type Upstream,
  type UpstreamAnswer,
} from "../upstream/upstream-client";
import { PurchaseAuditWriter, type AuditRecord } from "./purchase-audit-writer";
import { shortOfCatalog } from "./short-of-catalog";

export interface PurchaseItem {
  key: string;
  requested: RequestedCode;
  dataType: DataType;
  dataset: string;
  /** The catalog's view of the series now; null for a code the catalog does not list (never kept). */
  fingerprint: string | null;
  /**
   * Series Values: the catalog's last_available_final. A record bought that ends before it is
   * short of the catalog (short-of-catalog.ts): served, never kept as current. Absent or null:
   * not judged (History, a code the catalog does not list).
   */
  lastAvailableFinal?: string | null;
}

/**
 * A purchase under way is joined only by requests for the same key at the same fingerprint: one
 * made against an earlier catalog (the series changed while its call was out) buys what the
 * service had then, which is no answer for a request made against the newer one.
 */
function underwayId(item: PurchaseItem): string {
  return `${item.key}\n${item.fingerprint ?? ""}`;
}

export type PurchaseOutcome =
  | {
      kind: "answer";
      recordJson: string;
      source: "purchase" | "cache";
      /**
       * Bought by this call, whose audit row the database refused: settles once the row is
       * written (or the gateway stopped). Until then the audit does not count the purchase.
       */
      auditWaiting?: Promise<void>;
      /**
       * Short of the catalog (PurchaseItem.lastAvailableFinal): not kept, and not to be kept in
       * memory as the series' current answer either. Members' engines judge it themselves.
       */
      short?: true;
    }
  /** The service left the code out of its answer (unknown or not subscribed): no charge. */
  | { kind: "absent" }
  | { kind: "failed"; answer: UpstreamAnswer };

export interface PurchaseEvents {
  /** An upstream data call went out with these codes. */
  called?(product: ProductId, operation: DataOperation, codes: number): void;
  /**
   * The call ended. `known`: the service's answer says what it charged, these datasets (one
   * data request per code; none for an error answer); false when no answer says it (no
   * answer, or a 2xx that could not be read), and the service may have charged the call.
   */
  ended?(product: ProductId, operation: DataOperation, charged: readonly string[], known: boolean): void;
  /** The service charged these codes (one data request each). */
  charged?(product: ProductId, operation: DataOperation, datasets: readonly string[]): void;
  /** A requester joined a purchase already under way. */
  coalesced?(count: number): void;
  /**
   * The database refused to keep what a charged call bought (its audit row, or its answers);
   * the answers were served all the same.
   */
  storeFailed?(what: "purchase audit" | "answers"): void;
  /** Purchases whose audit row waits to be written again (purchase-audit-writer.ts). */
  auditWaiting?(count: number): void;
  /** A purchase whose audit row the database refused: kept, to be written again. */
  auditRowWaiting?(purchase: Purchase): void;
  /** A purchase whose audit row waited is written. */
  auditRowWritten?(purchase: Purchase): void;
  /** Purchases whose audit rows nothing will write: still refused at the stop, or refused after it. */
  auditLost?(purchases: readonly Purchase[]): void;
  /**
   * Calls still out when the stop stopped waiting for them (STOP_WAIT_MS), each as the audit row
   * it would have had: the service may charge them, and nothing will write those rows.
   */
  cutOff?(calls: readonly Purchase[]): void;
  /** The service answered a code the catalog does not list: the catalog is behind. */
  unlisted?(product: ProductId): void;
}

/** What a request that calls PurchaseQueue.buy hears of its keys. */
export interface BuyListener {
  /** A key this request buys itself, as its outcome comes (before the rest). */
  bought?(item: PurchaseItem, outcome: PurchaseOutcome): void;
  /**
   * A key another request is buying (or whose outcome stands for a while): joined, not bought,
   * so it costs this request's member nothing. Told at once, before buy awaits anything.
   */
  joined?(item: PurchaseItem): void;
}

export interface PurchaseQueueSettings {
  upstream: Pick<Upstream, "get" | "turn">;
  store: Pick<GatewayStore, "answers" | "audit" | "locks">;
  productPath: (product: ProductId) => string;
  now: () => number;
  /** A part-filled call waits until no code came for this long while several members ask... */
  idleMs: number;
  /**
   * ...or for this long while one member alone asks (default idleMs): their engine packs its own
   * codes into calls, so the gateway waits only for that member's next calls, which follow
   * quickly; members who open workbooks together reach the gateway over seconds, with gaps as
   * long as a member's engine takes to read an answer on a busy machine.
   */
  soloIdleMs?: number;
  /** ...but its first code waits no longer than this. */
  maxWaitMs: number;
  /**
   * A monotonic clock in ms for those waits (performance.now outside tests): the calendar
   * clock (`now`) may jump, and a wait must not.
   */
  elapsed?: () => number;
  /** Runs `run` after `ms` (setTimeout outside tests). */
  later?: (run: () => void, ms: number) => void;
  events?: PurchaseEvents;
}

interface Waiting {
  item: PurchaseItem;
  member: string;
  /** When the key came (elapsed ms). */
  cameAt: number;
  settle(outcome: PurchaseOutcome): void;
}

interface Group {
  product: ProductId;
  operation: DataOperation;
  waiting: Waiting[];
  flushScheduled: boolean;
  /** A loop is taking calls off this group, one per turn. */
  sending: boolean;
}

/** How often a call held by requests on their way to the queue looks whether they got there. */
const ON_THE_WAY_LOOK_MS = 10;

/**
 * How long a record short of the catalog answers its key instead of a purchase: members'
 * engines refuse it and ask again 15 minutes later for the same catalog (its part may have been
 * charged, series-sync.ts), so members asking at other moments meanwhile must not buy it once
 * each. After this the next request buys it once more.
 */
export const SHORT_ANSWER_STANDS_MS = 15 * 60_000;

/**
 * How long an industry code the service refused alone (the odd data type of a call halved down
 * to it) answers its key with that refusal: members' engines halve their own calls too, and
 * every half that holds it would otherwise set off the gateway's halving again at the service.
 */
export const REFUSED_ALONE_STANDS_MS = 15 * 60_000;

/**
 * How long a dataset the service refused for its allowance answers every key of it with that
 * refusal: each request would otherwise send a call the service refuses again, each one a call
 * of its daily quota, until the release. A plan raised meanwhile is used after this while.
 */
export const QUOTA_REFUSED_STANDS_MS = 5 * 60_000;

/**
 * How long the keys of a data call that got no answer, or a 2xx answer that could not be read,
 * are not bought again: the service may have charged the call. Members' engines ask again after
 * a while of their own (30 s), and meanwhile get the same answer, without a purchase.
 */
export const UNANSWERED_STANDS_MS = 5 * 60_000;

/**
 * How long the gateway's stop waits for the purchases out: a call out at the stop gets the
 * longest time any call is given (History's), and its audit row half a minute more to be written.
 * A call still out then is reported (PurchaseEvents.cutOff) and the stop goes on without it.
 */
export const STOP_WAIT_MS = HISTORY_TIMEOUT_MS + 30_000;

/** What a requester gets for a key the gateway no longer buys because it is stopping. */
const STOPPING: PurchaseOutcome = {
  kind: "failed",
  answer: {
    status: 503,
    body: JSON.stringify({ message: "The gateway is stopping: it sends no more calls to the service." }),
    contentType: "application/json; charset=utf-8",
    retryAfter: null,
  },
};

/** An outcome that answers its key for a while instead of a purchase (PurchaseQueue.standing). */
interface Standing {
  outcome: PurchaseOutcome;
  /** Until when (elapsed ms). */
  until: number;
}

export class PurchaseQueue {
  /** Purchases under way, by key and fingerprint (underwayId). */
  private readonly underway = new Map<string, Promise<PurchaseOutcome>>();
  /** The last purchase in this process of each key, until it ends (oneAtATime). */
  private readonly keyTails = new Map<string, Promise<void>>();
  private readonly groups = new Map<string, Group>();
  /** When a key to buy last came, whatever its group. */
  private lastArrival = -Infinity;
  /** Members' data requests received and not yet at the queue, with when each came (`arriving`). */
  private readonly onTheirWay = new Set<{ cameAt: number }>();
  /** When each member's keys last came (elapsed ms); entries older than the longest wait go. */
  private readonly membersSeen = new Map<string, number>();
  /**
   * Keys not bought again for a while, by underwayId, and what their requests get meanwhile: a
   * record short of the catalog, or the timeout of a call that got no answer. In this process
   * only: another instance, or this one after a restart, may buy such a key within the while.
   */
  private readonly standing = new Map<string, Standing>();
  /** Datasets the service refused for their allowance, by product and dataset (datasetId). */
  private readonly datasetsRefused = new Map<string, Standing>();

  private readonly audit: PurchaseAuditWriter;
  /** Purchases taken off their groups and not yet ended (the stop waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  /**
   * Calls sent to the service whose charge is not yet with the audit writer, each as the audit
   * row it would have (the codes sent, with their members): what a stop cut short reports.
   */
  private readonly callsOut = new Set<Purchase>();
  /** The gateway is stopping: no call is sent any more. */
  private stopping = false;

  constructor(private readonly settings: PurchaseQueueSettings) {
    const events = settings.events;
    this.audit = new PurchaseAuditWriter(
      settings.store.audit,
      settings.later ?? ((run, ms) => void setTimeout(run, ms).unref()),
      {
        refused: () => events?.storeFailed?.("purchase audit"),
        waiting: (count) => events?.auditWaiting?.(count),
        waitingRow: (purchase) => events?.auditRowWaiting?.(purchase),
        writtenLate: (purchase) => events?.auditRowWritten?.(purchase),
        lost: (purchases) => events?.auditLost?.(purchases),
      },
    );
  }

  /**
   * The gateway stops: no call is sent any more (the keys waiting for one fail at once), the
   * purchases out are waited for until they end or STOP_WAIT_MS has passed (the calls then still
   * out: `cutOff`), and then the audit rows still waiting get one more try (the rest: `auditLost`).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const group of this.groups.values()) this.settleWaiting(group, STOPPING);
    await this.purchasesEnded();
    await this.audit.stop();
  }

  /** Resolves once every purchase in flight has ended, or the stop's wait is over. */
  private async purchasesEnded(): Promise<void> {
    if (this.inFlight.size === 0) return;
    let waited = false;
    const waitOver = new Promise<void>((resolve) => {
      // Not a timer that keeps the process alive: the stop may end long before it.
      const later = this.settings.later ?? ((run, ms) => void setTimeout(run, ms).unref());
      later(() => {
        waited = true;
        resolve();
      }, STOP_WAIT_MS);
    });
    await Promise.race([Promise.all([...this.inFlight]), waitOver]);
    if (!waited || this.callsOut.size === 0) return;
    const cutOff = [...this.callsOut];
    try {
      this.settings.events?.cutOff?.(cutOff);
    } catch {
      // The stop goes on; only the report is missing.
    }
  }

  /**
   * The outcomes of the items whose keys another request is buying now (the purchase is the
   * other request's member's). Read at once, before the caller awaits anything, so that what the
   * caller then holds of a budget leaves them out; the caller that waits for them says so with
   * `joined`. A key another request starts buying while the caller awaits is joined by buy(),
   * which tells the caller so (BuyListener.joined).
   */
  buyingNow(product: ProductId, items: readonly PurchaseItem[]): Map<string, Promise<PurchaseOutcome>> {
    const found = new Map<string, Promise<PurchaseOutcome>>();
    for (const item of items) {
      const current = this.underway.get(underwayId(item)) ?? this.standingOutcome(product, item);
      if (current !== undefined) found.set(item.key, current);
    }
    return found;
  }

  /**
   * What a key not bought again for a while answers now (a purchase of it settled so), as
   * another request's purchase that this request joins; undefined once the while is over.
   */
  private standingOutcome(product: ProductId, item: PurchaseItem): Promise<PurchaseOutcome> | undefined {
    return (
      this.stillStanding(this.standing, underwayId(item)) ??
      this.stillStanding(this.datasetsRefused, datasetId(product, item.dataset))
    );
  }

  /** What the entry `id` of `whiles` answers now; undefined (and the entry dropped) once its while is over. */
  private stillStanding(whiles: Map<string, Standing>, id: string): Promise<PurchaseOutcome> | undefined {
    const standing = whiles.get(id);
    if (standing === undefined) return undefined;
    if (standing.until <= this.elapsed()) {
      whiles.delete(id);
      return undefined;
    }
    const { outcome } = standing;
    // A Retry-After says when the key is bought again: it counts down to the while's end.
    if (outcome.kind !== "failed" || outcome.answer.retryAfter === null) return Promise.resolve(outcome);
    const left = String(Math.ceil((standing.until - this.elapsed()) / 1000));
    return Promise.resolve({ kind: "failed", answer: { ...outcome.answer, retryAfter: left } });
  }

  /** The key answers `outcome` for `ms` instead of a purchase; the whiles already over are dropped. */
  private stand(item: PurchaseItem, outcome: PurchaseOutcome, ms: number): void {
    const now = this.elapsed();
    for (const [id, standing] of this.standing) if (standing.until <= now) this.standing.delete(id);
    this.standing.set(underwayId(item), { outcome, until: now + ms });
  }

  /** A request waits for `count` keys another request is buying (the coalesced requests' count). */
  joined(count: number): void {
    if (count > 0) this.settings.events?.coalesced?.(count);
  }

  /**
   * The outcome for each item's key; a key already under way is joined, not bought again. A
   * caller that looked at buyingNow before awaiting something learns here of the keys another
   * request started buying meanwhile (`heard.joined`).
   */
  async buy(
    member: string,
    product: ProductId,
    operation: DataOperation,
    items: readonly PurchaseItem[],
    heard: BuyListener = {},
  ): Promise<Map<string, PurchaseOutcome>> {
    const outcomes = new Map<string, Promise<PurchaseOutcome>>();
    const touched = new Set<Group>();
    let joined = 0;
    for (const item of items) {
      if (outcomes.has(item.key)) continue;
      const current = this.underway.get(underwayId(item)) ?? this.standingOutcome(product, item);
      if (current !== undefined) {
        outcomes.set(item.key, current);
        joined += 1;
        heard.joined?.(item);
        continue;
      }
      if (this.stopping) {
        outcomes.set(item.key, Promise.resolve(STOPPING));
        continue;
      }
      let settle!: (outcome: PurchaseOutcome) => void;
      const outcome = new Promise<PurchaseOutcome>((resolve) => (settle = resolve));
      this.underway.set(underwayId(item), outcome);
      outcomes.set(item.key, outcome);
      const { bought } = heard;
      if (bought !== undefined) void outcome.then((settled) => bought(item, settled));
      const group = this.group(product, operation, item.dataType);
      const now = this.elapsed();
      this.lastArrival = now;
      group.waiting.push({ item, member, cameAt: now, settle });
      touched.add(group);
    }
    this.membersSeen.set(member, this.elapsed());
    if (joined > 0) this.settings.events?.coalesced?.(joined);
    for (const group of touched) {
      // A full call goes out at its turn; a part-filled one waits for company first.
      if (this.canFillAtOnce(group)) this.send(group);
      else if (!group.sending) this.flushLater(group);
    }
    const settled = await Promise.all(
      [...outcomes].map(async ([key, outcome]) => [key, await outcome] as const),
    );
    return new Map(settled);
  }

  /**
   * A member's data request has come in and passed its sign-in check: until the returned
   * function is called (once its keys are asked for, or it ends without asking), a part-filled
   * call whose idle window ends after the request came waits for it, never past the call's
   * longest wait. Between its check and asking, a request waits for the store's look at its
   * keys, behind whatever the store is writing. A request nobody signed never counts (a flood of
   * them would keep every call to its longest wait). Requests that come in after a call's idle
   * window has ended do not hold it: on a busy gateway one is always on its way, most of them
   * served from the store.
   */
  arriving(): () => void {
    const request = { cameAt: this.elapsed() };
    this.onTheirWay.add(request);
    return () => {
      this.onTheirWay.delete(request);
    };
  }

  private group(product: ProductId, operation: DataOperation, dataType: DataType): Group {
    const id = `${product}|${operation}|${dataType}`;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = {
        product,
        operation,
        waiting: [],
        flushScheduled: false,
        sending: false,
      };
      this.groups.set(id, group);
    }
    return group;
  }

  /**
   * How much longer a part-filled call should wait for company: until no key of any group came
   * for the idle window and the requests that had come in by its end have reached the queue, and
   * never past the longest wait of its first key. 0: it goes now.
   */
  private waitLeft(group: Group): number {
    // Keys wait in the order they came: the first is the oldest (the ones taken left the list).
    const oldest = group.waiting[0];
    if (oldest === undefined || this.canFillAtOnce(group)) return 0;
    const { maxWaitMs } = this.settings;
    const now = this.elapsed();
    const idleEnds = this.lastArrival + this.idleWindow(now);
    const longestEnds = oldest.cameAt + maxWaitMs;
    const left = Math.min(idleEnds, longestEnds) - now;
    if (left > 0) return Math.min(maxWaitMs, left);
    if (now < longestEnds && this.cameBy(idleEnds)) return Math.min(ON_THE_WAY_LOOK_MS, longestEnds - now);
    return 0;
  }

  /** Whether a request that came in by `time` is still on its way to the queue. */
  private cameBy(time: number): boolean {
    for (const request of this.onTheirWay) if (request.cameAt <= time) return true;
    return false;
  }

  /** The idle window: the team's while several members ask, else the solo one. */
  private idleWindow(now: number): number {
    const { idleMs, soloIdleMs = idleMs } = this.settings;
    return this.severalAsking(now) ? idleMs : soloIdleMs;
  }

  /** Whether more than one member asked for keys to buy within the longest wait. */
  private severalAsking(now: number): boolean {
    for (const [member, seen] of this.membersSeen) {
      if (seen < now - this.settings.maxWaitMs) this.membersSeen.delete(member);
    }
    return this.membersSeen.size > 1;
  }

  /** Whether the group's waiting keys make a call that goes at its turn without waiting for company. */
  private canFillAtOnce(group: Group): boolean {
    return distinctCodes(group.waiting) >= this.fullCallsAt();
  }

  /**
   * The distinct codes a group needs for a full call to go without waiting: 40 while one member
   * alone asks (their engine packs its own codes); 80 while several ask. The last 40 then wait
   * with the part-filled rest, and the calls are chosen among all of them when the group stops
   * gathering: a code another member asks in another currency or unit, which cannot share a
   * call with its first key, then rides in another of those calls instead of costing a call of
   * its own after the others left.
   */
  private fullCallsAt(): number {
    return this.severalAsking(this.elapsed()) ? 2 * MAX_CODES_PER_CALL : MAX_CODES_PER_CALL;
  }

  private elapsed(): number {
    return (this.settings.elapsed ?? (() => performance.now()))();
  }

  /** Sends the group's keys once they have waited for company (waitLeft). */
  private flushLater(group: Group): void {
    if (group.flushScheduled) return;
    group.flushScheduled = true;
    const later = this.settings.later ?? ((run, ms) => void setTimeout(run, ms));
    const check = (): void => {
      const left = this.waitLeft(group);
      if (left > 0) {
        later(check, left);
        return;
      }
      group.flushScheduled = false;
      this.send(group);
    };
    later(check, Math.max(1, this.waitLeft(group)));
  }

  /** Sends the group's keys, one call per turn of its operation, while full calls or settled ones wait. */
  private send(group: Group): void {
    if (group.sending) return;
    group.sending = true;
    void (async () => {
      try {
        while (group.waiting.length > 0) {
          // What is left after a call is part-filled and still gathering: it waits again.
          if (this.waitLeft(group) > 0) {
            this.flushLater(group);
            break;
          }
          await this.settings.upstream.turn(group.operation);
          // The stop came while this waited for its turn: the keys got their answer then.
          if (this.stopping) break;
          const batch = this.takeBatch(group);
          if (batch.length > 0) this.track(this.purchase(group.product, group.operation, batch));
        }
      } catch (error) {
        // No turn at the service's rate: nobody waiting may be left without an answer.
        this.settleWaiting(group, { kind: "failed", answer: purchaseFailure(error) });
      } finally {
        group.sending = false;
      }
    })();
  }

  /** The stop waits for the purchase until it ends. */
  private track(purchase: Promise<void>): void {
    this.inFlight.add(purchase);
    void purchase.finally(() => this.inFlight.delete(purchase));
  }

  /** Every key still waiting in the group gets the outcome (a failure: no call was sent for it). */
  private settleWaiting(group: Group, outcome: PurchaseOutcome): void {
    for (const waiting of group.waiting.splice(0)) {
      this.underway.delete(underwayId(waiting.item));
      waiting.settle(outcome);
    }
  }

  /**
   * Takes up to 40 waiting keys with distinct codes off the group. A code asked in several
   * currencies or units needs a call per key, so the codes waiting most often go first (then in
   * the order they came): taken one at a time, the last call is not left with a lone second
   * key of a code that rode in the call before it.
   */
  private takeBatch(group: Group): Waiting[] {
    const counts = new Map<string, number>();
    for (const waiting of group.waiting) {
      const code = waiting.item.requested.code;
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    const byCount = group.waiting
      .map((waiting, order) => ({ waiting, order, count: counts.get(waiting.item.requested.code) ?? 1 }))
      .sort((a, b) => b.count - a.count || a.order - b.order);
    const codes = new Set<string>();
    const taken = new Set<Waiting>();
    for (const { waiting } of byCount) {
      if (taken.size === MAX_CODES_PER_CALL) break;
      const code = waiting.item.requested.code;
      if (codes.has(code)) continue;
      codes.add(code);
      taken.add(waiting);
    }
    group.waiting = group.waiting.filter((waiting) => !taken.has(waiting));
    return [...taken];
  }

  /**
   * Runs the work once every earlier purchase in this process of any of these keys has ended. A
   * key is bought twice at once only for two fingerprints (the series changed while the first
   * call was out): the newer purchase then finds the older one's answer kept, and its own is
   * kept last. Each purchase waits only for those registered before it, so none waits in a ring.
   */
  private async oneAtATime<T>(keys: readonly string[], work: (waited: boolean) => Promise<T>): Promise<T> {
    const earlier = keys.flatMap((key) => {
      const tail = this.keyTails.get(key);
      return tail === undefined ? [] : [tail];
    });
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    for (const key of keys) this.keyTails.set(key, mine);
    try {
      await Promise.all(earlier);
      return await work(earlier.length > 0);
    } finally {
      done();
      for (const key of keys) if (this.keyTails.get(key) === mine) this.keyTails.delete(key);
    }
  }

  private async purchase(
    product: ProductId,
    operation: DataOperation,
    batch: readonly Waiting[],
  ): Promise<void> {
    const keys = batch.map((waiting) => waiting.item.key);
    const settled = new Set<string>();
    const settle = (waiting: Waiting, outcome: PurchaseOutcome): void => {
      settled.add(waiting.item.key);
      this.underway.delete(underwayId(waiting.item));
      waiting.settle(outcome);
    };
    try {
      await this.oneAtATime(keys, (waited) =>
        this.settings.store.locks.withLocks(keys, async () => {
          // Another gateway instance may have bought some of these keys while this one waited.
          const kept = await this.settings.store.answers.get(keys);
          const toBuy: Waiting[] = [];
          for (const waiting of batch) {
            const answer = kept.get(waiting.item.key);
            if (
              answer !== undefined &&
              waiting.item.fingerprint !== null &&
              answer.fingerprint === waiting.item.fingerprint
            ) {
              settle(waiting, { kind: "answer", recordJson: answer.recordJson, source: "cache" });
            } else toBuy.push(waiting);
          }
          if (toBuy.length === 0) return;
          // The turn this call was taken at passed while an earlier call of a key ran: a new one.
          if (waited) await this.settings.upstream.turn(operation);
          await this.call(product, operation, toBuy, settle);
        }),
      );
    } catch (error) {
      const answer = purchaseFailure(error);
      for (const waiting of batch)
        if (!settled.has(waiting.item.key)) settle(waiting, { kind: "failed", answer });
    }
  }

  /**
   * One upstream call of these keys (`turnTaken`: at the turn the caller waited for), then the
   * smaller calls that replace it when the service refused it for some of its codes only.
   */
  private async call(
    product: ProductId,
    operation: DataOperation,
    toBuy: readonly Waiting[],
    settle: (waiting: Waiting, outcome: PurchaseOutcome) => void,
    turnTaken = true,
  ): Promise<void> {
    // The stop came while this waited (for an earlier call of a key, its turn, or a refused
    // call it replaces): nothing was sent for these keys, and nothing will be.
    if (this.stopping) {
      for (const waiting of toBuy) settle(waiting, STOPPING);
      return;
    }
    const folder = operation === "series_hist" ? "series_hist" : "series";
    const path = `${this.settings.productPath(product)}/v1/export/${folder}/${codesSegment(toBuy.map((waiting) => waiting.item.requested))}`;
    this.settings.events?.called?.(product, operation, toBuy.length);
    // What the service charged, a dataset per code it answered: known once its answer is read,
    // told even when keeping the answer fails afterwards.
    const charge: CallCharge = { known: false, datasets: [] };
    const handedOver = this.goingOut(product, operation, toBuy);
    let instead: Waiting[][];
    try {
      instead = await this.callOnce(product, operation, path, toBuy, settle, charge, turnTaken, handedOver);
    } finally {
      handedOver();
      this.settings.events?.ended?.(product, operation, charge.datasets, charge.known);
    }
    // Each is strictly smaller than the refused call, so a refusal cannot loop. Each waits for
    // a turn of its own at the service's rate.
    await Promise.all(instead.map((part) => this.call(product, operation, part, settle, false)));
  }

  /**
   * A call goes out with these keys: until the returned function says its charge is with the
   * audit writer (or the call ended without one), a stop cut short reports it as the audit row
   * it would have, stamped with when it was sent.
   */
  private goingOut(product: ProductId, operation: DataOperation, toBuy: readonly Waiting[]): () => void {
    const row: Purchase = {
      at: new Date(this.settings.now()),
      product,
      operation,
      codes: toBuy.map((waiting) => ({
        key: waiting.item.key,
        code: waiting.item.requested.code,
        dataset: waiting.item.dataset,
        member: waiting.member,
      })),
    };
    this.callsOut.add(row);
    return () => void this.callsOut.delete(row);
  }

  /**
   * Sends the call and settles its keys from the answer; returns the smaller calls to send
   * instead when the service refused it for some of its codes only (callsInstead).
   * `handedOver`: its charge is with the audit writer (what the writer does with it, it reports).
   */
  private async callOnce(
    product: ProductId,
    operation: DataOperation,
    path: string,
    toBuy: readonly Waiting[],
    settle: (waiting: Waiting, outcome: PurchaseOutcome) => void,
    charge: CallCharge,
    turnTaken: boolean,
    handedOver: () => void,
  ): Promise<Waiting[][]> {
    const datasets = [...new Set(toBuy.map((waiting) => waiting.item.dataset))];
    let answer: UpstreamAnswer;
    try {
      answer = await this.settings.upstream.get(path, operation, { turnTaken, datasets });
    } catch (error) {
      if (!(error instanceof UpstreamTimeout)) throw error;
      // The service may have answered, and charged, after the gateway stopped waiting: bought
      // again at once, the codes could be charged twice. Their requesters, and the keys'
      // requests for a while, get a timeout that members' engines take as possibly charged.
      const unanswered = perhapsCharged(504, error.message);
      for (const waiting of toBuy) {
        this.stand(waiting.item, { kind: "failed", answer: unanswered }, UNANSWERED_STANDS_MS);
        settle(waiting, { kind: "failed", answer: unanswered });
      }
      return [];
    }
    if (answer.status === 504) {
      // A front end of the service's that got no answer from it in time: the service may have
      // answered, and charged, as after the gateway's own timeout, so the keys stand alike.
      const unanswered = perhapsCharged(
        504,
        "The service answered the gateway's call HTTP 504 (it got no answer in time itself).",
        answer,
      );
      for (const waiting of toBuy) {
        this.stand(waiting.item, { kind: "failed", answer: unanswered }, UNANSWERED_STANDS_MS);
        settle(waiting, { kind: "failed", answer: unanswered });
      }
      return [];
    }
    if (answer.status < 200 || answer.status > 299) {
      // An error answer charges nothing.
      charge.known = true;
      const instead = callsInstead(product, toBuy, answer);
      const again = new Set(instead.flat());
      const refusedAlone = toBuy.length === 1 && refusedAsOddType(product, answer);
      const dataset = quotaRefusedDataset(toBuy, answer);
      if (dataset !== null) {
        this.datasetsRefused.set(datasetId(product, dataset), {
          outcome: { kind: "failed", answer },
          until: this.elapsed() + QUOTA_REFUSED_STANDS_MS,
        });
      }
      for (const waiting of toBuy) {
        if (again.has(waiting)) continue;
        if (refusedAlone) this.stand(waiting.item, { kind: "failed", answer }, REFUSED_ALONE_STANDS_MS);
        settle(waiting, { kind: "failed", answer });
      }
      return instead;
    }
    const records = parseRecords(answer.body);
    if (records === null) {
      // A 2xx is a call the service answered, and charged, though nobody can say for which codes:
      // bought again at once, they could be charged twice. The keys stand as after a timeout.
      const unreadable = perhapsCharged(502, "The service's answer is not a list of series records.", answer);
      for (const waiting of toBuy) {
        this.stand(waiting.item, { kind: "failed", answer: unreadable }, UNANSWERED_STANDS_MS);
        settle(waiting, { kind: "failed", answer: unreadable });
      }
      return [];
    }
    const byCode = new Map<string, { record: unknown; json: string }>();
    for (const record of records) {
      const code = (record as { code?: unknown }).code;
      if (typeof code === "string") byCode.set(code, { record, json: JSON.stringify(record) });
    }
    const at = new Date(this.settings.now());
    const bought = toBuy.filter((waiting) => byCode.has(waiting.item.requested.code));
    const codes = bought.map((waiting) => ({
      key: waiting.item.key,
      code: waiting.item.requested.code,
      dataset: waiting.item.dataset || datasetOf(byCode.get(waiting.item.requested.code)?.record),
      member: waiting.member,
    }));
    charge.datasets = codes.map((code) => code.dataset);
    charge.known = true;
    // Audited, then kept, before anyone is answered: a restart never buys them again. The
    // audit first, so a failure to keep the answers cannot lose the record of the charge. The
    // records were paid for: whatever the database refuses, the requesters get them.
    let audited: AuditRecord = null;
    if (codes.length > 0) {
      this.settings.events?.charged?.(
        product,
        operation,
        codes.map((code) => code.dataset),
      );
      audited = await this.audit.record({ at, product, operation, codes });
    }
    handedOver();
    // A record short of the catalog is not the series' current answer: kept under the catalog's
    // fingerprint it would be served as current until the series changes again (a month).
    const short = new Set(
      bought.filter((waiting) =>
        shortOfCatalog(byCode.get(waiting.item.requested.code)?.record, waiting.item.lastAvailableFinal),
      ),
    );
    await this.settings.store.answers
      .put(
        bought
          .filter((waiting) => waiting.item.fingerprint !== null && !short.has(waiting))
          .map((waiting) => ({
            key: waiting.item.key,
            recordJson: jsonOf(byCode, waiting.item.requested.code),
            fingerprint: waiting.item.fingerprint ?? "",
            boughtAt: at,
          })),
      )
      .catch(() => this.settings.events?.storeFailed?.("answers"));
    if (bought.some((waiting) => waiting.item.fingerprint === null))
      this.settings.events?.unlisted?.(product);
    for (const waiting of toBuy) {
      const bought = byCode.get(waiting.item.requested.code);
      if (bought !== undefined && short.has(waiting)) {
        // Its requesters get it (their engines judge it); for a while the key's next requests
        // get it too instead of a purchase each, then one request buys it again.
        this.stand(
          waiting.item,
          { kind: "answer", recordJson: bought.json, source: "cache", short: true },
          SHORT_ANSWER_STANDS_MS,
        );
      }
      settle(
        waiting,
        bought === undefined
          ? { kind: "absent" }
          : {
              kind: "answer",
              recordJson: bought.json,
              source: "purchase",
              ...(audited === null ? {} : { auditWaiting: audited.settled }),
              ...(short.has(waiting) ? { short: true } : {}),
            },
      );
    }
    return [];
  }
}

/**
 * The smaller calls that replace a call the service refused for some of its codes only; none
 * when the refusal is every code's. The service refuses a whole call when one of its datasets
 * has no allowance left (charging is all-or-nothing, docs/decisions.md D25; a call may hold
 * several datasets, docs/service.md §8.2): the codes of the dataset it names get the
 * refusal, the others go again without them. An industry economics call refused as a bad
 * request may mix data types the catalog did not tell apart (docs/service.md §6.7): it is
 * halved, as members' engines halve theirs, until the odd codes are alone.
 */
function callsInstead(product: ProductId, toBuy: readonly Waiting[], answer: UpstreamAnswer): Waiting[][] {
  const refusal = answer.refusal;
  if (refusal?.kind === "quota" && refusal.dataset !== null) {
    const others = toBuy.filter((waiting) => waiting.item.dataset !== refusal.dataset);
    return others.length > 0 && others.length < toBuy.length ? [others] : [];
  }
  if (refusedAsOddType(product, answer) && toBuy.length > 1) {
    const middle = Math.ceil(toBuy.length / 2);
    return [toBuy.slice(0, middle), toBuy.slice(middle)];
  }
  return [];
}

/**
 * The dataset a quota refusal is for: the one it names, or the only one of the call's codes;
 * null when it is no quota refusal or cannot be told.
 */
function quotaRefusedDataset(toBuy: readonly Waiting[], answer: UpstreamAnswer): string | null {
  const refusal = answer.refusal;
  if (refusal?.kind !== "quota") return null;
  if (refusal.dataset !== null) return refusal.dataset;
  const datasets = new Set(toBuy.map((waiting) => waiting.item.dataset));
  return datasets.size === 1 ? ([...datasets][0] ?? null) : null;
}

/** A dataset of a product, whatever the operation: Series Values and History share its allowance. */
function datasetId(product: string, dataset: string): string {
  return `${product}\n${dataset}`;
}

/** An industry call refused as a bad request: it may mix data types (docs/service.md §6.7). */
function refusedAsOddType(product: ProductId, answer: UpstreamAnswer): boolean {
  return answer.refusal?.kind === "bad request" && product === "industry_economics";
}

/** What the service charged for one call, as far as its answer says. */
interface CallCharge {
  known: boolean;
  datasets: string[];
}

/** The JSON text of a code the answer holds (the callers keep to those codes). */
function jsonOf(byCode: ReadonlyMap<string, { json: string }>, code: string): string {
  const bought = byCode.get(code);
  if (bought === undefined) throw new Error(`The service's answer holds no record of ${code}.`);
  return bought.json;
}

function distinctCodes(waiting: readonly Waiting[]): number {
  return new Set(waiting.map((entry) => entry.item.requested.code)).size;
}

function parseRecords(body: string): object[] | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!Array.isArray(parsed)) return null;
    return parsed.filter((record): record is object => typeof record === "object" && record !== null);
  } catch {
    return null;
  }
}

function datasetOf(record: unknown): string {
  const coverage = (record as { coverage?: unknown } | undefined)?.coverage;
  return typeof coverage === "string" ? coverage : "";
}

/**
 * What the requesters of a data call the service may have charged get (no answer in time, the
 * service's own 504, a 2xx that is not a list of records): its cause, what the gateway does about
 * it, and the while its keys are not bought again as its Retry-After. A 504 where no answer came
 * (members' engines take a 504 as a timeout the service may have charged, and do not ask again at
 * once); a 502 for an answer with no data to serve.
 */
function perhapsCharged(
  status: 502 | 504,
  cause: string,
  answer: Partial<UpstreamAnswer> = {},
): UpstreamAnswer {
  const minutes = Math.round(UNANSWERED_STANDS_MS / 60_000);
  return {
    ...answer,
    status,
    body: JSON.stringify({
      message: `${cause} The service may have charged it: the gateway does not buy its codes again for ${minutes} minutes.`,
    }),
    contentType: "application/json; charset=utf-8",
    retryAfter: String(UNANSWERED_STANDS_MS / 1000),
  };
}

/** What a requester gets when the gateway could not buy its key: the service's sign-in refusal, else a 502 naming the cause. */
function purchaseFailure(error: unknown): UpstreamAnswer {
  if (error instanceof UpstreamSignInError) return error.answer;
  return {
    status: 502,
    body: JSON.stringify({ message: `The gateway could not complete the purchase: ${describe(error)}` }),
    contentType: "application/json; charset=utf-8",
    retryAfter: null,
  };
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "the service did not answer in time";
  if (error instanceof TypeError) return "the service could not be reached";
  return error instanceof Error ? error.message : String(error);
}
