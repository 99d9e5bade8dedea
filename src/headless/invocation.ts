// A stand-in for CustomFunctions.StreamingInvocation: records every result the cell sets
// (the runner reports the latest) and lets the runner cancel the cell, as Excel does when a
// formula is recalculated or removed. A pass holds one per formula (tens of thousands) for
// as long as its cells live, so an invocation keeps no more than its latest result: no
// function of its own, and the promise the runner waits on only until the first result.

/** What settled() gives once there is a result (one for every invocation). */
const SETTLED: Promise<void> = Promise.resolve();

export class RecordingInvocation {
  /** Set by the cell (streaming-cell.ts) to stop its subscriptions. */
  onCanceled?: () => void;
  private results = 0;
  private last: unknown;
  /** Made when the runner waits before the first result; let go once it came. */
  private firstResult: Promise<void> | undefined;
  private resolveFirst: (() => void) | undefined;

  setResult(value: unknown): void {
    this.results += 1;
    this.last = value;
    const resolve = this.resolveFirst;
    this.firstResult = undefined;
    this.resolveFirst = undefined;
    resolve?.();
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
