import {
  expectedLatestFinal,
  latestReleaseStart,
  nextMaintenanceStart,
  nextReleaseStart,
  releaseDay,
  serviceState,
} from "../../src/core/schedule";

const utc = (text: string): number => Date.parse(text);
const iso = (epoch: number | null): string | null => (epoch === null ? null : new Date(epoch).toISOString());

describe("releaseDay (Nth Monday-Friday, no holidays)", () => {
  test.each([
    [2026, 11, 3, 4], // Nov 1 is a Sunday
    [2026, 12, 3, 3], // Dec 1 is a Tuesday
    [2027, 1, 3, 5], // Jan 1 is a Friday (New Year: no holiday calendar)
    [2026, 8, 1, 3], // Aug 1 is a Saturday
    [2026, 11, 1, 2],
    [2026, 11, 10, 13],
    [2025, 11, 5, 7],
  ])("%i-%i business day %i is the %i", (year, month, businessDay, day) => {
    expect(releaseDay(year, month, businessDay)).toEqual({ year, month, day });
  });

  test.each([0, -1, 1.5, 30])("business day %p is rejected", (businessDay) => {
    expect(() => releaseDay(2026, 11, businessDay)).toThrow(RangeError);
  });
});

describe("serviceState", () => {
  test.each([
    // maintenance 15th / 25th 06:00-22:00 Central: CDT in March, CST in November
    ["2026-03-15T10:59:00Z", true, null, null],
    ["2026-03-15T11:00:00Z", false, "maintenance", "2026-03-16T03:00:00.000Z"],
    ["2026-03-16T02:59:00Z", false, "maintenance", "2026-03-16T03:00:00.000Z"],
    ["2026-03-16T03:00:00Z", true, null, null],
    ["2026-11-15T11:59:00Z", true, null, null],
    ["2026-11-15T12:00:00Z", false, "maintenance", "2026-11-16T04:00:00.000Z"],
    ["2026-11-16T03:59:00Z", false, "maintenance", "2026-11-16T04:00:00.000Z"],
    ["2026-11-16T04:00:00Z", true, null, null],
    ["2026-11-25T18:00:00Z", false, "maintenance", "2026-11-26T04:00:00.000Z"],
    ["2026-11-14T18:00:00Z", true, null, null],
    // release day (3rd business day: 2026-11-04, 2026-12-03) from 06:00 to the 22:00 deadline
    ["2026-11-04T11:59:00Z", true, null, null],
    ["2026-11-04T12:00:00Z", false, "release", "2026-11-05T04:00:00.000Z"],
    ["2026-11-05T04:00:00Z", true, null, null],
    ["2026-12-03T20:00:00Z", false, "release", "2026-12-04T04:00:00.000Z"],
  ])("at %s available=%p reason=%p until=%p", (instant, available, reason, until) => {
    const state = serviceState(utc(instant), 3);
    expect({ available: state.available, reason: state.reason, until: iso(state.until) }).toEqual({
      available,
      reason,
      until,
    });
  });

  test("a release seen to be out ends the release downtime", () => {
    const now = utc("2026-11-04T18:00:00Z");
    expect(serviceState(now, 3, { releaseDoneAt: utc("2026-11-04T16:00:00Z") }).available).toBe(true);
    // A release seen last month says nothing about today.
    expect(serviceState(now, 3, { releaseDoneAt: utc("2026-10-05T16:00:00Z") }).available).toBe(false);
  });

  test("the release day follows the setting", () => {
    expect(serviceState(utc("2026-11-04T18:00:00Z"), 5).available).toBe(true);
    expect(serviceState(utc("2026-11-06T18:00:00Z"), 5).reason).toBe("release");
  });

  test("reports the next release and maintenance starts", () => {
    const state = serviceState(utc("2026-11-20T12:00:00Z"), 3);
    expect(iso(state.nextRelease)).toBe("2026-12-03T12:00:00.000Z");
    expect(iso(state.nextMaintenance)).toBe("2026-11-25T12:00:00.000Z");
  });
});

describe("nextReleaseStart / nextMaintenanceStart / latestReleaseStart", () => {
  test.each([
    // now, next release (06:00 Central of the 3rd business day), strictly after now
    ["2026-11-01T00:00:00Z", "2026-11-04T12:00:00.000Z"],
    ["2026-11-04T12:00:00Z", "2026-12-03T12:00:00.000Z"], // the window start itself is not "next"
    ["2026-12-20T00:00:00Z", "2027-01-05T12:00:00.000Z"], // across the year end
    ["2026-02-28T00:00:00Z", "2026-03-04T12:00:00.000Z"], // CST -> CDT month (Mar 4 is still CST)
  ])("next release after %s is %s", (now, expected) => {
    expect(iso(nextReleaseStart(utc(now), 3))).toBe(expected);
  });

  test.each([
    ["2026-11-01T00:00:00Z", "2026-11-15T12:00:00.000Z"],
    ["2026-11-15T12:00:00Z", "2026-11-25T12:00:00.000Z"],
    ["2026-11-26T00:00:00Z", "2026-12-15T12:00:00.000Z"],
    ["2026-12-25T13:00:00Z", "2027-01-15T12:00:00.000Z"],
    ["2026-03-10T00:00:00Z", "2026-03-15T11:00:00.000Z"], // CDT
  ])("next maintenance after %s is %s", (now, expected) => {
    expect(iso(nextMaintenanceStart(utc(now)))).toBe(expected);
  });

  test.each([
    ["2026-11-04T12:00:00Z", "2026-11-04T12:00:00.000Z"], // at the start itself
    ["2026-11-04T11:59:00Z", "2026-10-05T11:00:00.000Z"], // October: 3rd business day is Mon 5th, CDT
    ["2027-01-02T00:00:00Z", "2026-12-03T12:00:00.000Z"], // across the year start
  ])("latest release start at %s is %s", (now, expected) => {
    expect(iso(latestReleaseStart(utc(now), 3))).toBe(expected);
  });
});

describe("expectedLatestFinal", () => {
  test.each([
    ["2026-11-04T12:00:00Z", "2026-09"], // release day, before the 22:00 deadline
    ["2026-11-05T03:59:00Z", "2026-09"],
    ["2026-11-05T04:00:00Z", "2026-10"], // deadline passed
    ["2026-11-30T12:00:00Z", "2026-10"],
    ["2027-01-02T12:00:00Z", "2026-11"], // January before its release
    ["2027-01-06T12:00:00Z", "2026-12"],
  ])("at %s the latest final should be %s", (now, month) => {
    expect(expectedLatestFinal(utc(now), 3)).toBe(month);
  });
});

describe("serviceState is computed once a minute", () => {
  // 2026-11-25 06:00 Central (CST) is 12:00 UTC: a maintenance window starts on the minute.
  test.each([
    ["the last ms before a window", "2026-11-25T11:59:59.999Z", true],
    ["the window's first ms", "2026-11-25T12:00:00.000Z", false],
    ["within the window's first minute", "2026-11-25T12:00:30.500Z", false],
    ["the window's last ms", "2026-11-26T03:59:59.999Z", false],
    ["the first ms after it", "2026-11-26T04:00:00.000Z", true],
  ])("%s: the same answer memoised or not", (_name, instant, available) => {
    const now = utc(instant);
    const first = serviceState(now, 3);
    expect(first.available).toBe(available);
    expect(serviceState(now, 3)).toEqual(first);
    expect(serviceState(now + 1, 3).available).toBe(now % 60_000 === 59_999 ? !available : available);
  });

  test("Intl runs at most once for many requests within a minute", () => {
    const formatToParts = jest.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      const start = utc("2027-02-09T15:00:00.000Z");
      serviceState(start, 3);
      const calls = formatToParts.mock.calls.length;
      for (let ms = 1; ms < 60_000; ms += 7) serviceState(start + ms, 3);
      expect(formatToParts.mock.calls.length).toBe(calls);
      serviceState(start + 60_000, 3);
      // The next minute: a new reading (its window and release starts are known already).
      expect(formatToParts.mock.calls.length).toBe(calls + 1);
    } finally {
      formatToParts.mockRestore();
    }
  });

  test("a release seen out within the minute is taken into account at once", () => {
    // 2026-11-04 is the 3rd business day: release downtime from 06:00 Central (12:00 UTC).
    const now = utc("2026-11-04T15:00:30.000Z");
    expect(serviceState(now, 3).reason).toBe("release");
    expect(serviceState(now, 3, { releaseDoneAt: now - 10 }).available).toBe(true);
    expect(serviceState(now, 3, { releaseDoneAt: now + 10 }).reason).toBe("release");
  });
});
