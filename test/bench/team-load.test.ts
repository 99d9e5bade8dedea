import { percentile, summarizeLoad } from "../../bench/team-load";

test.each([
  [[], 50, 0],
  [[7], 99, 7],
  [[4, 1, 3, 2], 50, 2],
  [[4, 1, 3, 2], 75, 3],
  [[4, 1, 3, 2], 100, 4],
  [Array.from({ length: 100 }, (_, index) => 100 - index), 99, 99],
  [Array.from({ length: 100 }, (_, index) => index + 1), 50, 50],
  [[5, 9], 0, 5],
])("percentile of %j at %i is %d (nearest rank)", (values, p, expected) => {
  expect(percentile(values, p)).toBe(expected);
});

test("summarizeLoad: requests per second over the wall time, records per counted answer", () => {
  expect(
    summarizeLoad({ latenciesMs: [10, 20, 30, 40], errors: 1, records: 30, counted: 2, wallMs: 500 }),
  ).toEqual({
    requests: 4,
    errors: 1,
    wallMs: 500,
    perSecond: 8,
    p50Ms: 20,
    p99Ms: 40,
    recordsPerRequest: 15,
  });
  expect(summarizeLoad({ latenciesMs: [], errors: 0, records: 0, counted: 0, wallMs: 0 })).toEqual({
    requests: 0,
    errors: 0,
    wallMs: 0,
    perSecond: 0,
    p50Ms: 0,
    p99Ms: 0,
    recordsPerRequest: 0,
  });
});
