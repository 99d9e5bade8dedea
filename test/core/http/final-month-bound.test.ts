import { latestPossibleFinal } from "../../../src/core/http/final-month-bound";

test.each([
  ["mid-November", "2026-11-18T17:00:00Z", "2026-11"],
  ["January", "2026-01-15T12:00:00Z", "2026-01"],
  // 03:00 UTC on 1 December is still 30 November in Central Time (the service's clock).
  ["the first hours of a UTC month, still the old month in Chicago", "2026-12-01T03:00:00Z", "2026-11"],
  ["once the month has begun in Chicago", "2026-12-01T07:00:00Z", "2026-12"],
])("%s (%s): %s", (_name, iso, month) => {
  expect(latestPossibleFinal(Date.parse(iso))).toBe(month);
});
