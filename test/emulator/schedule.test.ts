import {
  downtimeAt,
  releaseDateOf,
  releaseDay,
  releaseInstant,
  scheduledLatestMonth,
} from "../../src/emulator/schedule";
import { monthDate } from "../../src/emulator/months";

test.each([
  // [year, month, 3rd business day]
  [2026, 11, 4], // Sun 1: Mon 2, Tue 3, Wed 4
  [2026, 12, 3], // Tue 1
  [2026, 8, 5], // Sat 1: Mon 3, Tue 4, Wed 5
  [2026, 2, 4], // Sun 1
  [2026, 5, 5], // Fri 1: Fri 1, Mon 4, Tue 5
  [2026, 4, 3], // Wed 1
])("the release day of %i-%i is the %i", (year, month, day) => {
  expect(releaseDay(year, month)).toBe(day);
});

test("the release instant is the release hour in Central time", () => {
  expect(releaseInstant(2026, 12, 12).toISOString()).toBe("2026-12-03T18:00:00.000Z");
  expect(releaseInstant(2026, 4, 12).toISOString()).toBe("2026-04-03T17:00:00.000Z");
});

test.each([
  ["before November's release", "2026-11-04T17:59:59Z", "2026-09-01"],
  ["at November's release", "2026-11-04T18:00:00Z", "2026-10-01"],
  ["early in a month", "2026-11-01T12:00:00Z", "2026-09-01"],
  ["the end of the year in UTC but not in Chicago", "2027-01-01T03:00:00Z", "2026-11-01"],
])("the latest concluded month %s is %s", (_case, now, month) => {
  expect(monthDate(scheduledLatestMonth(new Date(now), 12))).toBe(month);
});

test("the release date of a month is in the following month", () => {
  expect(releaseDateOf(237)).toBe("2026-11-04"); // 237 = 2026-10
});

test.each([
  ["maintenance day outside the window", "2026-11-15T04:00:00Z", undefined],
  ["maintenance on the 15th", "2026-11-15T12:00:00Z", "maintenance"],
  ["maintenance on the 25th", "2026-12-25T20:00:00Z", "maintenance"],
  ["release morning", "2026-11-04T13:00:00Z", "release"],
  ["release afternoon", "2026-11-04T19:00:00Z", undefined],
  ["an ordinary day", "2026-11-10T18:00:00Z", undefined],
])("%s: %s", (_case, now, kind) => {
  expect(downtimeAt(new Date(now), 12)?.kind).toBe(kind);
});

test("a late release hour makes the release-day window last until then", () => {
  const downtime = downtimeAt(new Date("2026-11-04T20:00:00Z"), 18);
  expect(downtime?.until.toISOString()).toBe("2026-11-05T00:00:00.000Z");
});
