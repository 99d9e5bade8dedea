import { DEFAULT_RETRY_POLICY, abortableSleep, backoffDelay } from "../../../src/core/http/retry-policy";

describe("backoffDelay (full jitter)", () => {
  test.each<[number, number, number]>([
    // attempt, random, expected delay with base 500 ms and cap 20 s
    [0, 0.999, 499],
    [1, 0.5, 500],
    [2, 0.5, 1_000],
    [3, 1 - 1e-9, 3_999],
    [6, 0.5, 10_000], // 500 * 64 = 32 s, capped at 20 s
    [3, 0, 0],
  ])("attempt %i with random %p waits %i ms", (attempt, random, expected) => {
    expect(backoffDelay(attempt, DEFAULT_RETRY_POLICY, () => random)).toBe(expected);
  });
});

describe("abortableSleep", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("resolves after the delay", async () => {
    let done = false;
    const sleeping = abortableSleep(1_000).then(() => {
      done = true;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });

  test("rejects with the caller's reason when aborted", async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error("cell cancelled"));
    await expect(sleeping).rejects.toThrow("cell cancelled");
  });
});
