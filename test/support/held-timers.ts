// Timers that run only when the test fires them: a wait the code under test starts (a
// call's timeout, a retry's pause, a store's watchdog) ends when the test says so, never
// because the machine was slow.
import type { Scheduler } from "../../src/core/scheduler";

export class HeldTimers implements Scheduler {
  /** The timers set and not yet fired or cancelled, oldest first. */
  readonly pending: Array<{ ms: number; run: () => void }> = [];
  /** How many timers have been set in all. */
  set = 0;

  after(ms: number, run: () => void): () => void {
    const timer = { ms, run };
    this.pending.push(timer);
    this.set += 1;
    return () => {
      const index = this.pending.indexOf(timer);
      if (index >= 0) this.pending.splice(index, 1);
    };
  }

  /** Runs the oldest pending timer; throws when there is none. */
  fire(): void {
    const timer = this.pending.shift();
    if (!timer) throw new Error("no timer to fire");
    timer.run();
  }
}
