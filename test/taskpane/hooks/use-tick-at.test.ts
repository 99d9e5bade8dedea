// When the pane loads again around a downtime's end: once just after it, then, while the load
// still gives back the same end, at growing intervals (never every second, never an hour).
import { tickDelayMs } from "../../../src/taskpane/hooks/use-tick-at";

const END = Date.parse("2026-11-15T16:30:00Z");

test.each<[string, number, number, number]>([
  ["first tick, the end 30 min away: 1 s after it", END - 30 * 60_000, 0, 30 * 60_000 + 1_000],
  ["first tick, the end already past: 1 s from now", END + 5_000, 0, 1_000],
  ["the load gave back the same end once: 2 s", END + 1_000, 1, 2_000],
  ["twice: 4 s", END + 3_000, 2, 4_000],
  ["five times: 32 s", END + 60_000, 5, 32_000],
  ["six times and more: a minute at most", END + 120_000, 6, 60_000],
  ["twenty times: still a minute", END + 600_000, 20, 60_000],
  ["a tick that came early, the end still 10 min away: 1 s after the end", END - 600_000, 1, 601_000],
])("%s", (_case, now, ticksAtThisTime, delay) => {
  expect(tickDelayMs(END, now, ticksAtThisTime)).toBe(delay);
});

test("an end beyond what a browser timer keeps ticks at the longest delay it keeps", () => {
  expect(tickDelayMs(END + 400 * 24 * 3_600_000, END, 0)).toBe(2_147_483_647);
});
