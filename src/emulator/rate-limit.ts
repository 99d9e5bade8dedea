// 10 requests per second per operation (docs/service.md §8.1) as a sliding one-second window.
// A server-side reject-don't-queue limiter is a few lines; the installed limiter
// (bottleneck) queues client-side work and does not fit. Time is injectable for tests.

export type MonotonicClock = () => number;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class SlidingWindowLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly limitPerWindow: number,
    private readonly windowMs = 1000,
    private readonly now: MonotonicClock = () => performance.now(),
  ) {}

  /** Admits a request for a key unless the window is full; rejected requests do not count. */
  tryAcquire(key: string): RateDecision {
    if (this.limitPerWindow <= 0) return { allowed: true };
    const now = this.now();
    const recent = (this.windows.get(key) ?? []).filter((time) => now - time < this.windowMs);
    if (recent.length >= this.limitPerWindow) {
      this.windows.set(key, recent);
      const oldest = recent[0] ?? now;
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      };
    }
    recent.push(now);
    this.windows.set(key, recent);
    return { allowed: true };
  }

  reset(): void {
    this.windows.clear();
  }
}
