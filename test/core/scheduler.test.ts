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

describe("realScheduler in Node: what keeps a host that is done running", () => {
  const pendingTimers = (): number =>
    process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

  test.each<[string, { background?: boolean } | undefined, number]>([
    // what, options, timers added to those keeping the process running
    ["a wait something awaits (a timeout, a retry)", undefined, 1],
    ["a wait something awaits, said so", { background: false }, 1],
    ["background work nobody waits for", { background: true }, 0],
  ])("%s", (_, options, added) => {
    const before = pendingTimers();
    const run = jest.fn();
    const cancel = realScheduler.after(60_000, run, options);
    try {
      expect(pendingTimers() - before).toBe(added);
    } finally {
      cancel();
    }
    expect(pendingTimers()).toBe(before);
    expect(run).not.toHaveBeenCalled();
  });
});
