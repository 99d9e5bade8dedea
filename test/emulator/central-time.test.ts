import {
  centralDate,
  centralOffsetMinutes,
  centralToInstant,
  centralWallTime,
  weekday,
} from "../../src/emulator/central-time";

describe("centralOffsetMinutes", () => {
  test.each([
    ["winter (CST)", "2026-01-15T12:00:00Z", -360],
    ["summer (CDT)", "2026-07-15T12:00:00Z", -300],
    ["just before the March switch (01:59 CST)", "2026-03-08T07:59:00Z", -360],
    ["just after the March switch (03:00 CDT)", "2026-03-08T08:00:00Z", -300],
    ["just before the November switch (01:59 CDT)", "2026-11-01T06:59:00Z", -300],
    ["just after the November switch (01:00 CST)", "2026-11-01T07:00:00Z", -360],
  ])("%s", (_case, instant, offset) => {
    expect(centralOffsetMinutes(new Date(instant))).toBe(offset);
  });
});

test.each([
  [2026, 1, 15, 6, "2026-01-15T12:00:00.000Z"],
  [2026, 7, 15, 6, "2026-07-15T11:00:00.000Z"],
  [2026, 3, 15, 22, "2026-03-16T03:00:00.000Z"],
  [2026, 11, 15, 22, "2026-11-16T04:00:00.000Z"],
  [2026, 3, 8, 12, "2026-03-08T17:00:00.000Z"],
  [2026, 11, 1, 12, "2026-11-01T18:00:00.000Z"],
])("centralToInstant(%i-%i-%i %i:00) = %s", (year, month, day, hour, iso) => {
  expect(centralToInstant(year, month, day, hour).toISOString()).toBe(iso);
});

test("wall time and date of an instant", () => {
  expect(centralWallTime(new Date("2026-11-26T03:59:30Z"))).toEqual({
    year: 2026,
    month: 11,
    day: 25,
    hour: 21,
    minute: 59,
    second: 30,
  });
  expect(centralDate(new Date("2026-11-11T05:59:00Z"))).toBe("2026-11-10");
  expect(centralDate(new Date("2026-11-11T06:00:00Z"))).toBe("2026-11-11");
});

test.each([
  [2026, 11, 22, 0],
  [2026, 12, 3, 4],
  [2007, 1, 1, 1],
])("weekday(%i-%i-%i) = %i", (year, month, day, dow) => {
  expect(weekday(year, month, day)).toBe(dow);
});
