// When the engine's own waits end: a call's timeout and the pause before a retry. The host
// passes the real timers; a test passes timers driven by its own clock, so that a call
// "times out" when the test moves that clock past the timeout, not after real seconds.

export interface Scheduler {
  /** Runs `run` once `ms` have passed on the scheduler's time; the returned function cancels it. */
  after(ms: number, run: () => void): () => void;
}

/** The real timers (setTimeout). */
export const realScheduler: Scheduler = {
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};
