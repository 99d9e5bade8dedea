import {
  allowancePeriodAt,
  allowancePeriodNamed,
  releaseDate,
} from "../../../src/gateway/members/allowance-period";

// Release days worked out by hand from the calendar (Nth Monday-to-Friday, 06:00 US Central:
// 11:00 UTC under daylight saving time, 12:00 UTC without).
const periodRows: Array<[string, string, number, string, string, string]> = [
  [
    "mid-month",
    "2026-11-15T00:00:00.000Z",
    3,
    "2026-11",
    "2026-11-04T12:00:00.000Z",
    "2026-12-03T12:00:00.000Z",
  ],
  [
    "the 1st, before the release",
    "2026-11-01T00:00:00.000Z",
    3,
    "2026-10",
    "2026-10-05T11:00:00.000Z",
    "2026-11-04T12:00:00.000Z",
  ],
  [
    "the last instant before the release",
    "2026-11-04T11:59:59.999Z",
    3,
    "2026-10",
    "2026-10-05T11:00:00.000Z",
    "2026-11-04T12:00:00.000Z",
  ],
  [
    "the release's first instant",
    "2026-11-04T12:00:00.000Z",
    3,
    "2026-11",
    "2026-11-04T12:00:00.000Z",
    "2026-12-03T12:00:00.000Z",
  ],
  [
    "across the year's end",
    "2027-01-02T00:00:00.000Z",
    3,
    "2026-12",
    "2026-12-03T12:00:00.000Z",
    "2027-01-05T12:00:00.000Z",
  ],
  [
    "a later release day (5th business day)",
    "2026-11-05T00:00:00.000Z",
    5,
    "2026-10",
    "2026-10-07T11:00:00.000Z",
    "2026-11-06T12:00:00.000Z",
  ],
  [
    "the 1st business day, on it",
    "2026-12-01T12:00:00.000Z",
    1,
    "2026-12",
    "2026-12-01T12:00:00.000Z",
    "2027-01-01T12:00:00.000Z",
  ],
];

test.each(periodRows)("the period at %s", (_case, at, releaseDay, name, start, end) => {
  const period = allowancePeriodAt(new Date(at), releaseDay);
  expect({ name: period.name, start: period.start.toISOString(), end: period.end.toISOString() }).toEqual({
    name,
    start,
    end,
  });
});

test.each<[string, number, string | null, string | null]>([
  ["2026-11", 3, "2026-11-04T12:00:00.000Z", "2026-12-03T12:00:00.000Z"],
  ["2026-12", 3, "2026-12-03T12:00:00.000Z", "2027-01-05T12:00:00.000Z"],
  ["2026-11", 5, "2026-11-06T12:00:00.000Z", "2026-12-07T12:00:00.000Z"],
  ["2026-13", 3, null, null],
  ["2026-00", 3, null, null],
  ["2026-1", 3, null, null],
  ["26-11", 3, null, null],
  ["0050-01", 3, null, null],
  ["1969-12", 3, null, null],
  ["2026-11-04", 3, null, null],
])("the period named %s (release day %d)", (name, releaseDay, start, end) => {
  const period = allowancePeriodNamed(name, releaseDay);
  expect(
    period === null ? null : [period.name, period.start.toISOString(), period.end.toISOString()],
  ).toEqual(start === null ? null : [name, start, end]);
});

test("a period's end is the next release's day", () => {
  expect(releaseDate(allowancePeriodAt(new Date("2026-11-15T00:00:00Z"), 3))).toBe("2026-12-03");
  expect(releaseDate(allowancePeriodAt(new Date("2026-12-20T00:00:00Z"), 3))).toBe("2027-01-05");
});
