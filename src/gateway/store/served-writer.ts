// Writes the audit of answers served behind the answers themselves: a member's answer does not
// wait for its audit row. Rows wait until answers have stopped coming for a moment (a member's
// add-in sends its calls in a burst), then go in one statement: on PGlite a write runs on the
// gateway's own thread, and writing each answer's rows as it left made the burst's later
// answers wait behind the earlier ones' writes. Purchases are not written this way: they are
// kept and audited before anyone is answered (purchase/purchase-queue.ts), so budgets and the
// usage report's charges never lag. Closing the gateway writes what is pending at once.
import type { AuditLog, ServedAnswer } from "./gateway-store";

/** Rows are written once no answer has been served for this long... */
export const SERVED_QUIET_MS = 25;
/**
 * ...or this long after the first of them, or once this many wait, whichever comes first (rows
 * that come during a write wait for it to end; a write takes this many at most): under steady
 * load answers never pause, and one write of a second's rows would hold PGlite's thread (and
 * every answer behind it) for a tenth of a second or more.
 */
export const SERVED_MAX_WAIT_MS = 100;
export const SERVED_MAX_ROWS = 1_000;

export interface ServedWriterTimers {
  /** Runs `run` after `ms` (setTimeout outside tests). */
  later: (run: () => void, ms: number) => void;
  /** A monotonic clock in ms (performance.now outside tests). */
  elapsed: () => number;
}

const REAL_TIMERS: ServedWriterTimers = {
  later: (run, ms) => void setTimeout(run, ms).unref(),
  elapsed: () => performance.now(),
};

export class ServedWriter {
  private pending: ServedAnswer[] = [];
  private writing: Promise<void> | null = null;
  /** A check is set for when the pending rows may be due. */
  private waiting = false;
  /** flushed() was called: the gateway is closing, and rows are written as they come. */
  private closing = false;
  /** When the first pending row and the last one came (elapsed ms). */
  private firstAt = 0;
  private lastAt = 0;

  constructor(
    private readonly audit: Pick<AuditLog, "recordServed">,
    /** A write that failed, with the number of rows it lost (counted in the metrics). */
    private readonly failed: (rows: number) => void,
    private readonly timers: ServedWriterTimers = REAL_TIMERS,
  ) {}

  record(answers: readonly ServedAnswer[]): void {
    if (answers.length === 0) return;
    const now = this.timers.elapsed();
    if (this.pending.length === 0) this.firstAt = now;
    this.lastAt = now;
    this.pending.push(...answers);
    this.consider();
  }

  /**
   * Writes every row recorded so far at once, and settles when they are written (or counted as
   * lost). The gateway is closing: rows recorded from now on (requests still finishing) are
   * written as they come, while the store is still open.
   */
  async flushed(): Promise<void> {
    this.closing = true;
    for (;;) {
      if (this.writing !== null) await this.writing;
      else if (this.pending.length > 0) this.startWrite();
      else return;
    }
  }

  /** Writes the pending rows if they are due, else makes sure a check is set for when they will be. */
  private consider(): void {
    // Nothing to write, or a write under way (it considers what is pending when it ends).
    if (this.pending.length === 0 || this.writing !== null) return;
    const dueAt = Math.min(this.lastAt + SERVED_QUIET_MS, this.firstAt + SERVED_MAX_WAIT_MS);
    const now = this.timers.elapsed();
    if (this.closing || now >= dueAt || this.pending.length >= SERVED_MAX_ROWS) this.startWrite();
    else if (!this.waiting) {
      this.waiting = true;
      this.timers.later(() => {
        this.waiting = false;
        this.consider();
      }, dueAt - now);
    }
  }

  /** One write of up to SERVED_MAX_ROWS rows, begun after `writing` is set (whatever the audit does). */
  private startWrite(): void {
    this.writing = Promise.resolve().then(() => this.write());
  }

  private async write(): Promise<void> {
    const batch = this.pending.splice(0, SERVED_MAX_ROWS);
    // What is left waits from now, as rows that come during the write do.
    if (this.pending.length > 0) this.firstAt = this.timers.elapsed();
    try {
      await this.audit.recordServed(batch);
    } catch {
      this.failed(batch.length);
    } finally {
      this.writing = null;
      this.consider();
    }
  }
}
