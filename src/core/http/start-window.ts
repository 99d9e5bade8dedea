// The starts of one operation's requests, as they actually leave. The rate gate spaces
// the grants of send slots, but a request can leave later than its grant (the event loop
// is busy parsing an answer) while the next one leaves on time; the service then sees
// 11 requests in a second and answers 429, which costs a call and a Retry-After wait.
// Counting the starts themselves closes that gap.
//
// Hand-written because no small library we can use gives this guarantee: p-throttle's
// strict mode plans each call's time when it is called, so a timer that fires late moves
// one start after its plan while the starts planned after it keep theirs, and a window can
// hold N + 1 of them; p-queue's sliding window (strict) needs Node 22, above this
// project's Node 20 floor. This checks the window at the moment a request leaves, against
// the times the requests before it really left.

export class StartWindow {
  private readonly starts: number[] = [];

  constructor(
    /** Most starts allowed in any window. */
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** How long a request must wait before it can start without crowding the window. */
  delayMs(): number {
    if (this.starts.length < this.limit) return 0;
    const oldest = this.starts[this.starts.length - this.limit] ?? 0;
    return Math.max(0, oldest + this.windowMs - this.now());
  }

  /** A request starts now. */
  record(): void {
    this.starts.push(this.now());
    if (this.starts.length > this.limit) this.starts.shift();
  }
}
