// The fault lab's one time: the engine's clock, the service's clock and the engine's call
// timers (each attempt's timeout, the wait before a retry) all read it. It moves only when
// the lab moves it: to a date a scenario sets, or to the next timer once every call in
// flight is one the lab holds (a held call times out only when the clock passes its
// timeout; an answered call takes no time at all).
import type { Scheduler } from "../../../src/core/scheduler";

interface Timer {
  at: number;
  order: number;
  run: () => void;
}

export class LabClock implements Scheduler {
  private nowMs: number;
  private timers: Timer[] = [];
  private order = 0;

  constructor(start: number) {
    this.nowMs = start;
  }

  readonly now = (): number => this.nowMs;

  /** Jumps to `ms` (a date a scenario sets); timers due by then run at the next step. */
  set(ms: number): void {
    this.nowMs = ms;
  }

  after(ms: number, run: () => void): () => void {
    const timer: Timer = { at: this.nowMs + Math.max(0, ms), order: this.order++, run };
    this.timers.push(timer);
    this.onTimer?.();
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }

  /** Told when a timer is set (the lab starts moving the clock). */
  onTimer: (() => void) | undefined;

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves to the earliest timer (never back) and runs every timer due then, in the order set. */
  step(): void {
    if (this.timers.length === 0) return;
    const next = Math.min(...this.timers.map((timer) => timer.at));
    this.nowMs = Math.max(this.nowMs, next);
    const due = this.timers.filter((timer) => timer.at <= this.nowMs).sort((a, b) => a.order - b.order);
    this.timers = this.timers.filter((timer) => timer.at > this.nowMs);
    for (const timer of due) timer.run();
  }
}
