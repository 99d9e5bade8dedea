import { realScheduler } from "../../src/core/scheduler";

describe("realScheduler", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test.each<[string, number, boolean, boolean]>([
    // what, ms advanced, cancelled first, ran
    ["runs once its time has passed", 1_000, false, true],
    ["does not run before its time", 999, false, false],
    ["does not run once cancelled", 5_000, true, false],
  ])("%s", (_, advancedMs, cancelled, ran) => {
    const run = jest.fn();
    const cancel = realScheduler.after(1_000, run);
    if (cancelled) cancel();
    jest.advanceTimersByTime(advancedMs);
    expect(run).toHaveBeenCalledTimes(ran ? 1 : 0);
  });
});
