// One "the service answers again" listener per engine for all cells waiting on a timed
// retry. A cell that failed for a passing reason (no answer, a server error, a downtime)
// waits for its retry timer; when the engine sees the service answer again, waiting cells
// try at once instead of showing the outage for up to a quarter of an hour longer. Like
// auth-watch.ts, a waiting cell costs one entry in a set, and the engine is subscribed to
// only while some cell waits.
import type { Engine, Unsubscribe } from "../core/engine-api";

/** What the registry asks of a waiting cell. */
export interface RetryWaiter {
  /** The service answers again: try now (the cell's own retry timer is replaced by this). */
  retryNow(): void;
}

class ServiceBackWatch {
  private readonly waiting = new Set<RetryWaiter>();
  private unsubscribe: Unsubscribe | undefined;

  constructor(private readonly engine: Engine) {}

  add(cell: RetryWaiter): void {
    this.waiting.add(cell);
    if (this.unsubscribe !== undefined || this.engine.onServiceBack === undefined) return;
    this.unsubscribe = this.engine.onServiceBack(() => this.onBack());
  }

  delete(cell: RetryWaiter): void {
    if (!this.waiting.delete(cell) || this.waiting.size > 0 || this.unsubscribe === undefined) return;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    unsubscribe();
  }

  private onBack(): void {
    // A copy: each cell leaves the set as it retries (and may join again if it fails again).
    for (const cell of [...this.waiting]) {
      this.delete(cell);
      cell.retryNow();
    }
  }
}

const watches = new WeakMap<Engine, ServiceBackWatch>();

/** The cell retries at once when the engine's service answers again, until unwaitForService. */
export function waitForService(engine: Engine, cell: RetryWaiter): void {
  let watch = watches.get(engine);
  if (watch === undefined) {
    watch = new ServiceBackWatch(engine);
    watches.set(engine, watch);
  }
  watch.add(cell);
}

/** The cell no longer waits (its retry ran, it was cancelled); harmless if it did not. */
export function unwaitForService(engine: Engine, cell: RetryWaiter): void {
  watches.get(engine)?.delete(cell);
}
