// Garbage-collection time while a step runs, from perf_hooks' 'gc' entries (one per
// collection, with its pause duration). Part of W5's account of where the time goes.
import { PerformanceObserver } from "node:perf_hooks";

export class GcTimer {
  private totalMs = 0;
  private collections = 0;
  private readonly observer: PerformanceObserver;

  constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.totalMs += entry.duration;
        this.collections += 1;
      }
    });
    this.observer.observe({ entryTypes: ["gc"] });
  }

  /** Stops observing; the pauses seen so far, in ms, and how many collections. */
  stop(): { ms: number; collections: number } {
    // Entries are delivered asynchronously: take what is buffered before disconnecting.
    for (const entry of this.observer.takeRecords()) {
      this.totalMs += entry.duration;
      this.collections += 1;
    }
    this.observer.disconnect();
    return { ms: this.totalMs, collections: this.collections };
  }
}
