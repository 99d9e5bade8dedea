// The audit rows of purchases. A purchase is audited before anyone is answered (purchase-queue.ts),
// so budgets and the usage report count it at once. When the database refuses the row (a lost
// connection, a restart of Postgres), the service has charged the call all the same: the row is
// kept here and written again, 5 s later, then twice as long each time up to a minute, and once
// more when the gateway stops. Without that the usage report would show less than the service
// charged, and a member's budget would count less than the member bought. The caller learns
// when a waiting row stops waiting, so that the member's budget hold can count the purchase
// until then (routes/data-routes.ts). A row that starts waiting, one written after all and what
// the database still refuses when the gateway stops, or refuses after that (a purchase answered
// while the gateway closes), go to events of their own, to be reported (refused-audit-rows.ts):
// a waiting row lives in memory only. (A row whose write was committed but whose
// acknowledgement was lost is written twice; that is far rarer.)
import type { AuditLog, Purchase } from "../store/gateway-store";

const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 60_000;

export interface PurchaseAuditEvents {
  /** A purchase's row was refused (counted; what becomes of it follows). */
  refused?(): void;
  /** A refused row is kept, to be written again. */
  waitingRow?(purchase: Purchase): void;
  /** A row that waited is written. */
  writtenLate?(purchase: Purchase): void;
  /** Rows waiting to be written, after each change. */
  waiting?(count: number): void;
  /** Rows nothing will write: still refused at the gateway's stop, or refused after it. */
  lost?(purchases: readonly Purchase[]): void;
}

/** A row the database refused: null when it took the row at once. */
export type AuditRecord = {
  /** Settles once the row is written, or once nothing will write it (the `lost` event has it). */
  settled: Promise<void>;
} | null;

interface UnwrittenRow {
  purchase: Purchase;
  /** Settles the row's AuditRecord. */
  done: () => void;
}

export class PurchaseAuditWriter {
  private readonly unwritten: UnwrittenRow[] = [];
  private retryMs = FIRST_RETRY_MS;
  private retryPlanned = false;
  private writing: Promise<void> | null = null;
  /** No retry is planned any more. */
  private stopped = false;
  /** The stop's last try is over: a row refused now is lost at once. */
  private finished = false;
  /** Records whose first write is on its way (the stop waits for them). */
  private readonly recording = new Set<Promise<AuditRecord>>();

  constructor(
    private readonly audit: Pick<AuditLog, "recordPurchase">,
    /** Runs `run` after `ms` (a timer that does not keep the process alive outside tests). */
    private readonly later: (run: () => void, ms: number) => void,
    private readonly events: PurchaseAuditEvents = {},
  ) {}

  /** Writes the purchase's row, or keeps it to write again. Never rejects. */
  record(purchase: Purchase): Promise<AuditRecord> {
    const recorded = this.firstWrite(purchase);
    this.recording.add(recorded);
    void recorded.finally(() => this.recording.delete(recorded));
    return recorded;
  }

  private async firstWrite(purchase: Purchase): Promise<AuditRecord> {
    try {
      await this.audit.recordPurchase(purchase);
      return null;
    } catch {
      this.events.refused?.();
      if (this.finished) {
        this.reportLost([purchase]);
        return { settled: Promise.resolve() };
      }
      let done = (): void => undefined;
      const settled = new Promise<void>((resolve) => (done = resolve));
      this.unwritten.push({ purchase, done });
      this.report(() => this.events.waitingRow?.(purchase));
      this.events.waiting?.(this.unwritten.length);
      this.planRetry();
      return { settled };
    }
  }

  /** Rows still waiting to be written. */
  waiting(): number {
    return this.unwritten.length;
  }

  /**
   * The gateway stops: the rows on their way are written or refused, the rows waiting get one
   * more try, and no retry is planned after it. What the database still refuses goes to `lost`.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.recording]);
    await this.writing;
    await this.writeWaiting();
    this.finished = true;
    const lost = this.unwritten.splice(0);
    if (lost.length === 0) return;
    for (const row of lost) row.done();
    this.events.waiting?.(0);
    this.reportLost(lost.map((row) => row.purchase));
  }

  private reportLost(purchases: readonly Purchase[]): void {
    this.report(() => this.events.lost?.(purchases));
  }

  /** A report that fails must change nothing here: not the rows kept, not the gateway's stop. */
  private report(send: () => void): void {
    try {
      send();
    } catch {
      // The row is kept or lost the same; only its report is missing.
    }
  }

  private planRetry(): void {
    if (this.retryPlanned || this.stopped) return;
    this.retryPlanned = true;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    this.later(() => {
      this.retryPlanned = false;
      if (this.stopped) return;
      // One writer at a time: a row must not be written by two of them.
      if (this.writing !== null) {
        this.planRetry();
        return;
      }
      this.writing = this.writeWaiting().finally(() => (this.writing = null));
      void this.writing.then(() => {
        if (this.unwritten.length > 0) this.planRetry();
        else this.retryMs = FIRST_RETRY_MS;
      });
    }, delay);
  }

  /**
   * Tries every waiting row once, in order, and keeps those the database refuses again: a row it
   * can never take does not hold back the others.
   */
  private async writeWaiting(): Promise<void> {
    const tried = this.unwritten.splice(0);
    const refused: UnwrittenRow[] = [];
    for (const row of tried) {
      try {
        await this.audit.recordPurchase(row.purchase);
        row.done();
        this.report(() => this.events.writtenLate?.(row.purchase));
      } catch {
        refused.push(row);
      }
    }
    // Rows refused meanwhile by record() came after these.
    this.unwritten.unshift(...refused);
    if (refused.length < tried.length) this.events.waiting?.(this.unwritten.length);
  }
}
