import { StartWindow } from "../../../src/core/http/start-window";

describe("StartWindow (3 starts per 1,000 ms)", () => {
  // Starts recorded at these times, asked at `now`: the wait before the next start.
  test.each([
    ["no start yet", [], 0, 0],
    ["two starts: room for a third", [0, 10], 20, 0],
    ["three starts, the oldest 400 ms ago", [0, 10, 20], 400, 600],
    ["three starts, the oldest a second ago", [0, 10, 20], 1_000, 0],
    ["only the last three count", [0, 500, 600, 700], 1_000, 500],
  ])("%s: waits %#", (_case, starts, now, expectedDelay) => {
    let clock = 0;
    const window = new StartWindow(3, 1_000, () => clock);
    for (const start of starts) {
      clock = start;
      window.record();
    }
    clock = now;
    expect(window.delayMs()).toBe(expectedDelay);
  });
});
