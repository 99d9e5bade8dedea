import { SlidingWindowLimiter } from "../../src/emulator/rate-limit";

test("ten per second per key; the eleventh waits for the window to slide", () => {
  let now = 0;
  const limiter = new SlidingWindowLimiter(10, 1000, () => now);
  for (let i = 0; i < 10; i += 1) expect(limiter.tryAcquire("series_values")).toEqual({ allowed: true });
  expect(limiter.tryAcquire("series_values")).toEqual({ allowed: false, retryAfterSeconds: 1 });
  expect(limiter.tryAcquire("series_info")).toEqual({ allowed: true });
  now = 999;
  expect(limiter.tryAcquire("series_values").allowed).toBe(false);
  now = 1000;
  expect(limiter.tryAcquire("series_values")).toEqual({ allowed: true });
});

test("a limit of 0 disables limiting; reset empties the windows", () => {
  const off = new SlidingWindowLimiter(0, 1000, () => 0);
  for (let i = 0; i < 100; i += 1) expect(off.tryAcquire("x").allowed).toBe(true);
  const limiter = new SlidingWindowLimiter(1, 1000, () => 0);
  limiter.tryAcquire("x");
  expect(limiter.tryAcquire("x").allowed).toBe(false);
  limiter.reset();
  expect(limiter.tryAcquire("x").allowed).toBe(true);
});
