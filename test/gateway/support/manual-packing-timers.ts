// The purchase queue's clock and timers, moved only when a test says so, so that a part-filled
// call leaves when the test moves the clock past its wait, never because the machine was slow.

export interface ManualPackingTimers {
  now(): number;
  later(run: () => void, ms: number): void;
  /** Timers set and not yet run. */
  pending(): number;
  /** Moves the clock by `ms` and runs the timers due by then, in order (the ones they set too). */
  advance(ms: number): void;
  /** Moves the clock to the latest timer set so far and runs those timers (not the ones they set). */
  flush(): void;
}

export function manualPackingTimers(start: number): ManualPackingTimers {
  const clock = { now: start };
  const due: Array<{ run: () => void; at: number }> = [];
  return {
    now: () => clock.now,
    later: (run, ms) => void due.push({ run, at: clock.now + ms }),
    pending: () => due.length,
    advance: (ms) => {
      const until = clock.now + ms;
      for (;;) {
        const next = due.filter((entry) => entry.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        due.splice(due.indexOf(next), 1);
        clock.now = next.at;
        next.run();
      }
      clock.now = until;
    },
    flush: () => {
      const runs = due.splice(0);
      clock.now = Math.max(clock.now, ...runs.map((entry) => entry.at));
      for (const entry of runs) entry.run();
    },
  };
}
