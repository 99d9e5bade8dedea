// The run's one deadline (--timeout bounds the whole run): each phase waits for its work
// or the deadline, whichever comes first, and a missed deadline ends the run.

export type DeadlineOutcome<T> = { done: true; value: T } | { done: false };

/** Waits for work until deadlineAt (performance.now() time); the work itself is not stopped. */
export async function untilDeadline<T>(work: Promise<T>, deadlineAt: number): Promise<DeadlineOutcome<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<DeadlineOutcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, deadlineAt - performance.now()));
  });
  try {
    return await Promise.race([work.then((value): DeadlineOutcome<T> => ({ done: true, value })), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
