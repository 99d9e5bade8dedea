// Peak resident memory while a workload runs, sampled (process.resourceUsage().maxRSS only
// ever grows over the whole process, so it cannot tell one workload from the next).

export class MemorySampler {
  /** Resident memory when sampling started, MiB. */
  readonly startMiB = process.memoryUsage.rss() / 1024 ** 2;
  private peak = process.memoryUsage.rss();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(intervalMs = 20) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    // Sampling must not keep the process alive.
    this.timer.unref();
  }

  private sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage.rss());
  }

  /** Stops sampling and returns the peak in MiB. */
  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peak / 1024 ** 2;
  }
}
