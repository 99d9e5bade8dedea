// Coalesces many writes into few storage transactions. A recalculation stores one cache
// entry per series answered (40 per data call, thousands per workbook); one IndexedDB
// transaction each made the store's scheduling and bookkeeping the largest CPU cost of a
// cold pass. Writes made in the same turn of the event loop, and those made while a flush
// is running, go to storage together, and only the latest value of a key is written.
import type { KeyValueStorage } from "../environment";

/**
 * Largest transaction written at once. A slow flush lets the next batch grow (a cold
 * workbook stores thousands of series); chunks keep each transaction short.
 */
export const MAX_ENTRIES_PER_TRANSACTION = 200;

/** Called once per failed transaction with the keys it could not write and why. */
export type WriteFailure = (keys: readonly string[], error: unknown) => void;

interface Batch {
  values: Map<string, unknown>;
  /** Settles when the batch has been written (or has failed and been reported). */
  done: Promise<void>;
  start: () => void;
}

export class WriteBatch {
  /** Values waiting for the next flush. */
  private next: Batch | undefined;
  /** The flush running now, if any (at most one at a time). */
  private running: Promise<void> | undefined;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly onFailure: WriteFailure,
  ) {}

  /**
   * Queues a write; resolves once it is in storage or its failure has been reported (a
   * write never rejects: the caller's data in memory is good either way).
   */
  write(key: string, value: unknown): Promise<void> {
    const batch = this.pending();
    batch.values.set(key, value);
    return batch.done;
  }

  /** Drops the writes not yet started (e.g. before deleting what they would write). */
  discardPending(): void {
    this.next?.values.clear();
  }

  /** Resolves when every write queued so far has been flushed. */
  async flush(): Promise<void> {
    while (this.next !== undefined || this.running !== undefined) {
      await (this.next?.done ?? this.running);
    }
  }

  private pending(): Batch {
    if (this.next) return this.next;
    let start!: () => void;
    const values = new Map<string, unknown>();
    const done = new Promise<void>((resolve) => {
      start = () => resolve(this.writeBatch(values));
    });
    const batch: Batch = { values, done, start };
    this.next = batch;
    // The first write of a turn schedules the flush for the next turn, so everything written
    // meanwhile (a whole answer's entries) joins it; a running flush starts it when it ends.
    if (this.running === undefined) setTimeout(() => this.startNext(), 0);
    return batch;
  }

  private startNext(): void {
    const batch = this.next;
    if (batch === undefined || this.running !== undefined) return;
    this.next = undefined;
    batch.start();
    this.running = batch.done.finally(() => {
      this.running = undefined;
      this.startNext();
    });
  }

  private async writeBatch(values: Map<string, unknown>): Promise<void> {
    const entries = [...values];
    // One transaction per chunk, one after the other: each stays well within the time a
    // storage operation may take before the resilient store counts it as hanging.
    for (let start = 0; start < entries.length; start += MAX_ENTRIES_PER_TRANSACTION) {
      const chunk = entries.slice(start, start + MAX_ENTRIES_PER_TRANSACTION);
      try {
        if (this.storage.setMany) await this.storage.setMany(chunk);
        else await Promise.all(chunk.map(([key, value]) => this.storage.set(key, value)));
      } catch (error) {
        this.onFailure(
          chunk.map(([key]) => key),
          error,
        );
      }
    }
  }
}
