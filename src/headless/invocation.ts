// A stand-in for CustomFunctions.StreamingInvocation: records every result the cell sets
// (the runner reports the latest) and lets the runner cancel the cell, as Excel does when a
// formula is recalculated or removed.
//
// One is made per cell per pass, so it holds no closure or promise of its own until asked:
// a warm pass answers every cell synchronously, and 30,000 cells' promises and bound
// setResult functions were a noticeable part of its garbage.

/** What settled() returns once a result is in: one resolved promise for every cell. */
const SETTLED: Promise<void> = Promise.resolve();

export class RecordingInvocation {
  /** Set by the cell (streaming-cell.ts) to stop its subscriptions. */
  onCanceled?: () => void;
  private results = 0;
  private last: unknown;
  /** Made only when the runner waits before the first result. */
  private firstResult?: Promise<void>;
  private resolveFirst?: () => void;

  setResult(value: unknown): void {
    this.results += 1;
    this.last = value;
    const resolve = this.resolveFirst;
    if (resolve !== undefined) {
      this.resolveFirst = undefined;
      resolve();
    }
  }

  get hasResult(): boolean {
    return this.results > 0;
  }

  get resultCount(): number {
    return this.results;
  }

  get latest(): unknown {
    return this.last;
  }

  /** Resolves with the first result. */
  settled(): Promise<void> {
    if (this.results > 0) return SETTLED;
    this.firstResult ??= new Promise<void>((resolve) => (this.resolveFirst = resolve));
    return this.firstResult;
  }

  cancel(): void {
    this.onCanceled?.();
  }
}
