// One operation's jobs start in the order they came, each at least `minTimeMs` after the
// one before: the request gate spaces an operation's requests by 1000/N ms this way. A
// job always starts from a timer (a zero delay too), so work queued in the same turn of
// the event loop is there when it starts.

export class StartSpacing {
  private nextStartAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly minTimeMs: number,
    /** The clock timers keep (Date.now; tests' fake timers move it). */
    private readonly now: () => number,
  ) {}

  /** Runs `job` at its turn; resolves or rejects with the job's result. */
  schedule<T>(job: () => Promise<T>): Promise<T> {
    const now = this.now();
    const startAt = Math.max(now, this.nextStartAt);
    this.nextStartAt = startAt + this.minTimeMs;
    return new Promise<void>((start) => setTimeout(start, startAt - now)).then(job);
  }
}
