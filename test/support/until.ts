// A test's wait for something that happens on real time (a server's answer, a handed-over
// job): it reads again until the condition holds and fails, naming what it waited for, when
// it never does. The limit guards against a hang; it is not a measure of speed.

export interface UntilOptions {
  /** Real time after which the wait fails (10 s). */
  timeoutMs?: number;
  /** Real time between reads (1 ms). */
  pollMs?: number;
}

/** Reads until `done` holds and returns that reading; throws naming `what` after the limit. */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = 10_000, pollMs = 1 }: UntilOptions = {},
): Promise<T> {
  const giveUpAt = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > giveUpAt) {
      throw new Error(`Waited ${timeoutMs / 1000} s for ${what}; last read: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
