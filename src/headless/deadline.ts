// The run's one deadline (--timeout bounds the whole run): each phase waits for its work
// or the deadline, whichever comes first, and a missed deadline ends the run. Its timer is
// a Scheduler's, so a test decides when the deadline passes instead of the machine's speed.
import { realScheduler, type Scheduler } from "../core/scheduler";

export type DeadlineOutcome<T> = { done: true; value: T } | { done: false };

export class RunDeadline {
  private readonly reached: Promise<void>;
  private readonly cancelTimer: () => void;

  /** Starts the deadline: it passes `timeoutMs` from now on the scheduler's time. */
  constructor(timeoutMs: number, scheduler: Scheduler = realScheduler) {
    let cancel: () => void = () => undefined;
    this.reached = new Promise<void>((resolve) => {
      cancel = scheduler.after(Math.max(0, timeoutMs), resolve);
    });
    this.cancelTimer = cancel;
  }

  /** Waits for work until the deadline; the work itself is not stopped. */
  async race<T>(work: Promise<T>): Promise<DeadlineOutcome<T>> {
    return Promise.race([
      work.then((value): DeadlineOutcome<T> => ({ done: true, value })),
      this.reached.then((): DeadlineOutcome<T> => ({ done: false })),
    ]);
  }

  /** Stops the timer (the run has ended; nothing waits on it any more). */
  cancel(): void {
    this.cancelTimer();
  }
}
