// The fault lab's one time: the engine's clock, the service's clock and the engine's call
// timers (each attempt's timeout, the wait before a retry) all read it. It moves only when
// the lab moves it: to a date a scenario sets, or to the next timer once every call in
// flight is one the lab holds (a held call times out only when the clock passes its
// timeout; an answered call takes no time at all).
import type { Scheduler, TimerOptions } from "../../../src/core/scheduler";

interface Timer {
  at: number;
  order: number;
  run: () => void;
  /** Work nobody waits for (TimerOptions.background): it never moves the clock itself. */
  background: boolean;
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

  after(ms: number, run: () => void, options?: TimerOptions): () => void {
    const timer: Timer = {
      at: this.nowMs + Math.max(0, ms),
      order: this.order++,
      run,
      background: options?.background === true,
    };
    this.timers.push(timer);
    this.onTimer?.();
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }

  /** Told when a timer is set (the lab starts moving the clock). */
  onTimer: (() => void) | undefined;

  /**
   * Timers something waits for. Background ones (an outage probe, a settling read) run when
   * the clock passes them, as they would in a host that carries on, but do not move it: in
   * an outage the probe re-arms itself for ever, and the lab would live through hours.
   */
  get pendingTimers(): number {
    return this.timers.filter((timer) => !timer.background).length;
  }

  /**
   * Moves to the earliest timer something waits for (never back) and runs every timer due
   * then, background ones included, in the order set.
   */
  step(): void {
    const waited = this.timers.filter((timer) => !timer.background);
    if (waited.length === 0) return;
    const next = Math.min(...waited.map((timer) => timer.at));
    this.nowMs = Math.max(this.nowMs, next);
    const due = this.timers.filter((timer) => timer.at <= this.nowMs).sort((a, b) => a.order - b.order);
    this.timers = this.timers.filter((timer) => timer.at > this.nowMs);
    for (const timer of due) timer.run();
  }
}
