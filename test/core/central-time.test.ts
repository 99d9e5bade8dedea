import { calendarWeekday, centralParts, centralToEpoch } from "../../src/core/central-time";

const utc = (text: string): number => Date.parse(text);

describe("centralParts", () => {
  test.each([
    // instant (UTC), expected Central wall clock; CST is UTC-6, CDT UTC-5
    ["2026-01-15T12:00:00Z", { year: 2026, month: 1, day: 15, hour: 6, minute: 0, weekday: 4 }],
    ["2026-03-15T11:00:00Z", { year: 2026, month: 3, day: 15, hour: 6, minute: 0, weekday: 0 }],
    ["2026-11-15T12:00:00Z", { year: 2026, month: 11, day: 15, hour: 6, minute: 0, weekday: 0 }],
    ["2026-11-16T03:59:00Z", { year: 2026, month: 11, day: 15, hour: 21, minute: 59, weekday: 0 }],
    ["2027-01-01T05:59:00Z", { year: 2026, month: 12, day: 31, hour: 23, minute: 59, weekday: 4 }],
    ["2026-03-08T08:30:00Z", { year: 2026, month: 3, day: 8, hour: 3, minute: 30, weekday: 0 }],
    ["2026-07-01T05:00:00Z", { year: 2026, month: 7, day: 1, hour: 0, minute: 0, weekday: 3 }],
  ])("%s reads %o in Central Time", (instant, expected) => {
    expect(centralParts(utc(instant))).toEqual(expected);
  });
});

describe("centralToEpoch", () => {
  test.each([
    [2026, 1, 15, 6, 0, "2026-01-15T12:00:00.000Z"], // CST
    [2026, 3, 15, 6, 0, "2026-03-15T11:00:00.000Z"], // CDT, a week after the change
    [2026, 3, 15, 22, 0, "2026-03-16T03:00:00.000Z"],
    [2026, 11, 15, 6, 0, "2026-11-15T12:00:00.000Z"], // CST again
    [2026, 11, 15, 22, 0, "2026-11-16T04:00:00.000Z"],
    [2026, 3, 8, 1, 30, "2026-03-08T07:30:00.000Z"], // just before spring forward (CST)
    [2026, 3, 8, 3, 30, "2026-03-08T08:30:00.000Z"], // just after (CDT)
    [2026, 11, 1, 6, 0, "2026-11-01T12:00:00.000Z"], // the morning after fall back
    [2026, 10, 31, 22, 0, "2026-11-01T03:00:00.000Z"], // the evening before fall back (CDT)
  ])("%i-%i-%i %i:%i Central is %s", (year, month, day, hour, minute, expected) => {
    expect(new Date(centralToEpoch(year, month, day, hour, minute)).toISOString()).toBe(expected);
  });

  test("round-trips through centralParts every hour of a year", () => {
    const start = utc("2026-01-01T00:00:00Z");
    for (let instant = start; instant < start + 366 * 86_400_000; instant += 3_600_000) {
      const p = centralParts(instant);
      // The repeated 01:xx hour of fall back maps to one of its two instants.
      const back = centralToEpoch(p.year, p.month, p.day, p.hour, p.minute);
      expect(Math.abs(back - instant) === 0 || Math.abs(back - instant) === 3_600_000).toBe(true);
      expect(centralParts(back)).toEqual(p);
    }
  });
});

describe("calendarWeekday", () => {
  test.each([
    [2026, 11, 1, 0],
    [2026, 11, 4, 3],
    [2027, 1, 1, 5],
    [2024, 2, 29, 4],
  ])("%i-%i-%i is weekday %i", (year, month, day, weekday) => {
    expect(calendarWeekday(year, month, day)).toBe(weekday);
  });
});
