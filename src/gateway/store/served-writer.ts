// Writes the audit of answers served behind the answers themselves: a member's answer does not
// wait for its audit row, and rows that come while a write is under way go together in the
// next one (one statement for many requests). Purchases are not written this way: they are
// kept and audited before anyone is answered (purchase/purchase-queue.ts), so budgets and the
// usage report's charges never lag. Closing the gateway waits for what is pending.
import type { AuditLog, ServedAnswer } from "./gateway-store";

export class ServedWriter {
  private pending: ServedAnswer[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly audit: Pick<AuditLog, "recordServed">,
    /** A write that failed, with the number of rows it lost (counted in the metrics). */
    private readonly failed: (rows: number) => void,
  ) {}

  record(answers: readonly ServedAnswer[]): void {
    if (answers.length === 0) return;
    this.pending.push(...answers);
    this.writing ??= this.drain();
  }

  /** Settles once every row recorded so far is written (or counted as lost). */
  async flushed(): Promise<void> {
    while (this.writing !== null) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.audit.recordServed(batch);
        } catch {
          this.failed(batch.length);
        }
      }
    } finally {
      this.writing = null;
    }
  }
}
