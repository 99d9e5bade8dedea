// When the engine's own waits end: a call's timeout, the pause before a retry and the reads
// it takes again later. The host passes the real timers; a test passes timers driven by its own
// clock, so that a call "times out" when the test moves that clock past the timeout, not after
// real seconds.

export interface TimerOptions {
  /**
   * Work nobody waits for (a Data Limits reading taken again once calls are over): in Node it
   * does not keep a host that is done (the headless runner, a script, a test file) running.
   * A wait that something awaits (a timeout, a retry) must keep it running, or the process
   * would end with that work unfinished.
   */
  background?: boolean;
}

export interface Scheduler {
  /** Runs `run` once `ms` have passed on the scheduler's time; the returned function cancels it. */
  after(ms: number, run: () => void, options?: TimerOptions): () => void;
}

/** The real timers (setTimeout). */
export const realScheduler: Scheduler = {
  after(ms, run, options) {
    const timer = setTimeout(run, ms);
    // Browsers' timers are numbers and never keep anything running.
    if (options?.background) (timer as { unref?: () => void }).unref?.();
    return () => clearTimeout(timer);
  },
};

/**
 * Timers with the time they keep, for the waits of the request rate (the spacing of one
 * operation's calls, the window of their starts). The service counts its rate in real time,
 * so these are real timers even where a test drives the engine's other timers by its own
 * clock; such a test passes real timers it can watch, to know when the engine is pacing.
 */
export interface PacingTimers extends Scheduler {
  /** Epoch milliseconds, on the time these timers keep. */
  now(): number;
}

/** The real timers and the real time. */
export const realPacing: PacingTimers = {
  now: () => Date.now(),
  after: (ms, run, options) => realScheduler.after(ms, run, options),
};
