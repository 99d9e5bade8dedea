// Coalesces the data calls of one recalculation. Excel evaluates hundreds of cells
// within milliseconds; each asks for one series. The batcher turns them into as few
// calls as the service allows (40 distinct codes per call, one product and data type
// per call), because every call counts against daily quotas and the 10/s rate.
import { chargedFailure, PcdError, toPcdError } from "./errors";
import type { Logger } from "./environment";
import type { CodeRequest, DataType, ProductId, SeriesValues, ServiceEnvironment } from "./model";
import type { Admission } from "./quota-ledger";
import {
  MAX_CODES_PER_CALL,
  type DataCallOperation,
  type SendSlot,
  type ServiceClient,
} from "./service-client";
import { CallQueue } from "./call-queue";
import { ENGINE_DEFAULTS } from "./defaults";

export const DEFAULT_BATCH_WINDOW_MS = ENGINE_DEFAULTS.batchWindowMs;
export const DEFAULT_BATCH_MAX_WAIT_MS = ENGINE_DEFAULTS.batchMaxWaitMs;

export interface BatchItem {
  /** The request key; identical keys of one operation share one promise. */
  key: string;
  environment: ServiceEnvironment;
  product: ProductId;
  dataType: DataType;
  /** The allowance the code draws on (Series Info coverage). */
  dataset: string;
  request: CodeRequest;
}

/** Decides, right before a call leaves, which codes the allowances can pay for. */
export interface BatchGate {
  /**
   * Runs before a call waits for its send slot, so it may call the service (read the
   * product's Data Limits).
   */
  prepare?(item: BatchItem): Promise<void>;
  /** Runs while the call holds its send slot: must not call the service. */
  admit(items: readonly BatchItem[], operation: DataCallOperation): Promise<Admission<BatchItem>>;
  /** Codes of a call the service rejected as a whole, or that never left (it spent nothing on them). */
  refund(items: readonly BatchItem[]): void;
  /** Codes of a call the service answered with 2xx: charged. */
  confirm?(items: readonly BatchItem[]): void;
  /** Codes of a call that got no answer (network, timeout): charged or not, unknown. */
  unanswered?(items: readonly BatchItem[]): void;
  /**
   * The service answered "quota" for a whole call: returns, per item, the error it fails
   * with, or "retry" for items of datasets that still have allowance (sent again without
   * the exhausted dataset's codes).
   */
  quotaRefused(
    items: readonly BatchItem[],
    error: PcdError,
    operation: DataCallOperation,
  ): (item: BatchItem) => PcdError | "retry";
  /**
   * Whether a call refused for a quota is halved and each half sent again, to find the codes
   * refused alone (default: never). Through a team gateway: it serves the codes it keeps at
   * no cost and refuses a call whole for one it would have to buy beyond an allowance or a
   * member's budget.
   */
  splitRefusal?(items: readonly BatchItem[], error: PcdError): boolean;
}

export interface BatcherOptions {
  client: Pick<ServiceClient, "seriesValues" | "seriesHistory" | "reserveSlot">;
  gate?: BatchGate;
  /** Idle time since the last enqueue before a partial group goes out. */
  windowMs?: number;
  /** Longest a queued code waits, however busy the recalculation. */
  maxWaitMs?: number;
  /**
   * Whether a call refused as unavailable is halved and each half sent again (default: never).
   * Through a team gateway in a downtime window: it serves the codes it keeps, and refuses a call
   * whole for one it lacks, so halving finds the codes it can serve (without calling the
   * service, which the gateway asks at most once a minute then).
   */
  splitWhenUnavailable?: () => boolean;
  log?: Logger;
}

interface Pending {
  operation: DataCallOperation;
  item: BatchItem;
  promise: Promise<SeriesValues>;
  resolve(values: SeriesValues): void;
  reject(error: PcdError): void;
}

const OPERATION_LABEL: Record<DataCallOperation, string> = {
  series_values: "Series Values",
  series_hist: "Series Values History",
};

function groupKey(operation: DataCallOperation, item: BatchItem): string {
  return `${item.environment}|${item.product}|${item.dataType}|${operation}`;
}

/** For clients without a rate gate (test fakes): every call may leave at once. */
const IMMEDIATE_SLOT: SendSlot = { run: (attempt) => attempt(), release: () => undefined };

/** The requests of one product + data type + operation that wait for calls. */
interface Group {
  operation: DataCallOperation;
  /** Every item of the group has this product; the gate reads its allowances. */
  first: BatchItem;
  queue: CallQueue<Pending>;
  /** Calls asked for (waiting for a send slot) whose codes are not chosen yet. */
  unbound: number;
}

export class Batcher {
  private readonly pending = new Map<string, Pending>();
  private readonly groups = new Map<string, Group>();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private maxWaitTimer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = 0;
  private sent = 0;
  private charged = 0;
  private unconfirmed = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly windowMs: number;
  private readonly maxWaitMs: number;

  constructor(private readonly options: BatcherOptions) {
    this.windowMs = options.windowMs ?? DEFAULT_BATCH_WINDOW_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_BATCH_MAX_WAIT_MS;
  }

  /** Data for one code; shares the promise of an identical request already queued or in flight. */
  fetch(operation: DataCallOperation, item: BatchItem): Promise<SeriesValues> {
    const dedupeKey = `${operation}|${item.key}`;
    const existing = this.pending.get(dedupeKey);
    if (existing) return existing.promise;

    let resolve!: (values: SeriesValues) => void;
    let reject!: (error: PcdError) => void;
    const promise = new Promise<SeriesValues>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const entry: Pending = { operation, item, promise, resolve, reject };
    this.pending.set(dedupeKey, entry);
    const settled = (): void => {
      this.pending.delete(dedupeKey);
    };
    promise.then(settled, settled);

    const key = groupKey(operation, item);
    let group = this.groups.get(key);
    if (!group) {
      group = {
        operation,
        first: item,
        queue: new CallQueue((queued: Pending) => queued.item.request.code, MAX_CODES_PER_CALL),
        unbound: 0,
      };
      this.groups.set(key, group);
    }
    group.queue.add(entry);
    // A group that can fill a whole call does not wait for the window (docs/decisions.md D9).
    while (group.queue.fills(group.unbound + 1)) this.askForCall(key, group);
    this.armTimers();
    return promise;
  }

  /** Codes sent in data calls so far, answered or not. */
  codesSent(): number {
    return this.sent;
  }

  /** Codes of calls the service answered with 2xx: the data requests it charged. */
  codesCharged(): number {
    return this.charged;
  }

  /** Codes of calls that got no answer: the service may or may not have charged them. */
  codesUnconfirmed(): number {
    return this.unconfirmed;
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Nothing queued and nothing in flight. */
  isIdle(): boolean {
    return this.groups.size === 0 && this.inFlight === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private armTimers(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.flush(), this.windowMs);
    this.maxWaitTimer ??= setTimeout(() => this.flush(), this.maxWaitMs);
  }

  /** The window is over: ask for as many calls as the queued codes need at least. */
  private flush(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.maxWaitTimer);
    this.idleTimer = undefined;
    this.maxWaitTimer = undefined;
    for (const [key, group] of this.groups) {
      for (let missing = group.queue.minimumCalls() - group.unbound; missing > 0; missing--) {
        this.askForCall(key, group);
      }
    }
    this.notifyIfIdle();
  }

  /**
   * Asks for one call of the group. Its codes are chosen only when the rate gate grants
   * the send slot (late binding): by then the rest of the recalculation has arrived, so
   * two requests of one code still pair up with other codes instead of meeting in the last
   * calls, and the group needs no more calls than its lower bound.
   */
  private askForCall(key: string, group: Group): void {
    group.unbound += 1;
    this.inFlight += 1;
    void this.sendNextCall(key, group).finally(() => {
      this.inFlight -= 1;
      this.notifyIfIdle();
    });
  }

  private async sendNextCall(key: string, group: Group): Promise<void> {
    let slot: SendSlot | undefined;
    let failure: PcdError | undefined;
    try {
      // Reading the allowances may call the service: done before the slot is held, or six
      // waiting calls could hold every place in flight that the read needs.
      await this.options.gate?.prepare?.(group.first);
      slot = await (this.options.client.reserveSlot?.(group.operation) ?? IMMEDIATE_SLOT);
    } catch (error) {
      failure = toPcdError(error);
    }
    group.unbound -= 1;
    const call = group.queue.take();
    if (group.queue.size === 0 && group.unbound === 0) this.groups.delete(key);
    // Codes left without a call (they came after the last window closed) get their own window.
    else if (group.unbound === 0 && this.idleTimer === undefined) this.armTimers();
    try {
      if (call.length === 0) return;
      if (failure) {
        for (const entry of call) entry.reject(failure);
        return;
      }
      await this.send(call, slot);
    } catch (error) {
      // A failing gate or client callback must not leave cells waiting for ever: every code
      // of the call still unsettled fails with the cause (settled ones are not affected).
      for (const entry of call) entry.reject(toPcdError(error));
    } finally {
      slot?.release();
    }
  }

  private async send(call: Pending[], slot?: SendSlot): Promise<void> {
    const first = call[0];
    if (!first) return;
    const { operation } = first;
    // The call's environment is its items' (one group, one environment), never the
    // settings' now: a switch since they were queued must not send them elsewhere.
    const { product, environment } = first.item;
    let toSend = call;
    const gate = this.options.gate;
    if (gate) {
      let admission: Admission<BatchItem>;
      try {
        admission = await gate.admit(
          call.map((entry) => entry.item),
          operation,
        );
      } catch (error) {
        for (const entry of call) entry.reject(toPcdError(error));
        return;
      }
      const admitted = new Set(admission.admitted);
      for (const { item, error } of admission.refused)
        call.find((entry) => entry.item === item)?.reject(error);
      toSend = call.filter((entry) => admitted.has(entry.item));
      if (toSend.length === 0) return;
    }

    const requests = toSend.map((entry) => entry.item.request);
    this.sent += requests.length;
    try {
      const answer =
        operation === "series_hist"
          ? await this.options.client.seriesHistory(environment, product, requests, { slot })
          : await this.options.client.seriesValues(environment, product, requests, { slot });
      this.charged += requests.length;
      gate?.confirm?.(toSend.map((entry) => entry.item));
      for (const entry of toSend) {
        // A code the answer refused or left out was charged with the others.
        const values = answer.get(entry.item.request.code);
        if (values instanceof PcdError) entry.reject(chargedFailure(values));
        else if (values) entry.resolve(values);
        else {
          entry.reject(
            new PcdError(
              "not_found",
              `The service returned no data for ${entry.item.request.code} (${OPERATION_LABEL[operation]}); ` +
                "it may be discontinued or no longer in your subscription.",
              { charged: true },
            ),
          );
        }
      }
    } catch (caught) {
      const error = toPcdError(caught);
      // docs/service.md §6.7: a call may hold one industry data type only, and no field names the
      // type. If our derivation was wrong, halving isolates the odd codes instead of failing
      // every cell of the call. A gateway in downtime (splitWhenUnavailable), or refusing a call
      // for the codes it would have to buy (splitRefusal), alike.
      const mixedTypes = error.kind === "bad_request" && product === "industry_economics";
      const partlyKept =
        (error.kind === "unavailable" && this.options.splitWhenUnavailable?.() === true) ||
        (error.kind === "quota" &&
          gate?.splitRefusal?.(
            toSend.map((entry) => entry.item),
            error,
          ) === true);
      if ((mixedTypes || partlyKept) && toSend.length > 1) {
        this.sent -= requests.length;
        gate?.refund(toSend.map((entry) => entry.item));
        if (mixedTypes) {
          this.options.log?.(
            "warn",
            `Industry economics call of ${toSend.length} codes rejected (${error.message}); splitting it`,
          );
        }
        const middle = Math.ceil(toSend.length / 2);
        await Promise.all([this.send(toSend.slice(0, middle)), this.send(toSend.slice(middle))]);
        return;
      }
      if (error.kind === "quota" && gate) {
        // A refused call charged nothing: its codes go back (a retry is admitted afresh).
        gate.refund(toSend.map((entry) => entry.item));
        const verdictOf = gate.quotaRefused(
          toSend.map((entry) => entry.item),
          error,
          operation,
        );
        const retry: Pending[] = [];
        for (const entry of toSend) {
          const verdict = verdictOf(entry.item);
          if (verdict === "retry") retry.push(entry);
          else entry.reject(verdict);
        }
        // Only a strictly smaller call is retried, so a refusal can never loop.
        if (retry.length > 0 && retry.length < toSend.length) {
          this.sent -= retry.length;
          await this.send(retry);
        } else {
          for (const entry of retry) entry.reject(error);
        }
        return;
      }
      if (error.details.charged === true) {
        // The service answered with success (and charged) though the answer was unusable.
        this.charged += requests.length;
        gate?.confirm?.(toSend.map((entry) => entry.item));
      } else if ((error.kind === "network" || error.kind === "timeout") && error.details.notSent !== true) {
        // No answer: the service may have charged the call (a timeout is often answered
        // late). The ledger keeps these codes apart until Data Limits says.
        this.unconfirmed += requests.length;
        gate?.unanswered?.(toSend.map((entry) => entry.item));
      } else {
        // The service answered with an error (or the call never left): nothing charged.
        gate?.refund(toSend.map((entry) => entry.item));
      }
      for (const entry of toSend) entry.reject(error);
    }
  }
}
