// A stand-in for CustomFunctions.StreamingInvocation: records every result the cell sets
// (the runner reports the latest) and lets the runner cancel the cell, as Excel does when a
// formula is recalculated or removed.

export class RecordingInvocation {
  /** Set by the cell (streaming-cell.ts) to stop its subscriptions. */
  onCanceled?: () => void;
  private results = 0;
  private last: unknown;
  private readonly firstResult: Promise<void>;
  private resolveFirst: () => void = () => undefined;

  constructor() {
    this.firstResult = new Promise<void>((resolve) => (this.resolveFirst = resolve));
  }

  readonly setResult = (value: unknown): void => {
    this.results += 1;
    this.last = value;
    this.resolveFirst();
  };

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
    return this.firstResult;
  }

  cancel(): void {
    this.onCanceled?.();
  }
}
