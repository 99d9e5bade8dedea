import { StartSpacing } from "../../../src/core/http/start-spacing";

beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-18T15:00:00Z") }));
afterEach(() => jest.useRealTimers());

test.each([
  ["queued together: 105 ms apart from the first", [0, 0, 0], [0, 105, 210]],
  ["the second comes after the spacing passed: at once", [0, 200], [0, 200]],
  ["the second comes 50 ms later: 55 ms after it came", [0, 50], [0, 105]],
])("%s", async (_name, queuedAt, expectedStarts) => {
  const t0 = Date.now();
  const spacing = new StartSpacing(105, Date.now);
  const starts: number[] = [];
  const done: Promise<void>[] = [];
  for (const at of queuedAt) {
    await jest.advanceTimersByTimeAsync(t0 + at - Date.now());
    done.push(spacing.schedule(async () => void starts.push(Date.now() - t0)));
  }
  await jest.advanceTimersByTimeAsync(1_000);
  await Promise.all(done);
  expect(starts).toEqual(expectedStarts);
});

test("a job starts from a timer even without a wait, and passes its result on", async () => {
  const spacing = new StartSpacing(100, Date.now);
  let started = false;
  const result = spacing.schedule(async () => {
    started = true;
    return 42;
  });
  await Promise.resolve();
  expect(started).toBe(false);
  await jest.advanceTimersByTimeAsync(0);
  expect(started).toBe(true);
  await expect(result).resolves.toBe(42);
});

test("a failed job passes its error on and keeps the next one's turn", async () => {
  const spacing = new StartSpacing(100, Date.now);
  const failed = spacing.schedule(async () => Promise.reject(new Error("boom")));
  const next = spacing.schedule(async () => Date.now());
  const rejected = expect(failed).rejects.toThrow("boom");
  await jest.advanceTimersByTimeAsync(100);
  await rejected;
  await expect(next).resolves.toBe(Date.parse("2026-11-18T15:00:00Z") + 100);
});
