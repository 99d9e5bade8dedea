import { coldBound } from "../../bench/bounds";
import type { LoggedCall } from "../../bench/call-log";
import { describeGroupExcess, groupExcess } from "../../bench/group-check";
import { codes, key, series } from "./fixtures";

const utilities = codes("1", 50).map((code) => series(code, "industry_economics"));
const byCode = new Map(utilities.map((entry) => [entry.code, entry]));

function call(callCodes: string[], status = 200): LoggedCall {
  return {
    operation: "series_hist",
    product: "industry_economics",
    codes: callCodes,
    startMs: 0,
    endMs: 1,
    status,
  };
}

// 50 codes, 10 of them in a second currency: 60 requests, bound max(ceil(60/40), 2) = 2 calls.
const keys = [
  ...utilities.map((entry) => key(entry.code, "industry_economics", "utilities")),
  ...utilities.slice(0, 10).map((entry) => key(entry.code, "industry_economics", "utilities", 1)),
];
const bound = coldBound(keys, { signIns: 1, catalogs: 1 });
const all = utilities.map((entry) => entry.code);

test("a group sent within its bound is not reported", () => {
  expect(bound.calls.series_hist).toBe(2);
  expect(
    groupExcess([call(all.slice(0, 40)), call([...all.slice(40), ...all.slice(0, 10)])], bound, byCode),
  ).toEqual([]);
});

test("repeated codes piled into the tail cost an extra call, and the note says so", () => {
  const excess = groupExcess(
    [call(all.slice(0, 40)), call(all.slice(40)), call(all.slice(0, 10))],
    bound,
    byCode,
  );
  expect(excess).toEqual([
    {
      group: "industry_economics/utilities/series_hist",
      calls: 3,
      bound: 2,
      refused: 0,
      sizes: [40, 10, 10],
      repeatedCodes: 10,
    },
  ]);
  expect(describeGroupExcess(excess)).toBe(
    "over the bound: industry_economics/utilities/series_hist 3 calls vs 2 (codes per answered call 40,10,10; 10 codes in more than one call, i.e. asked in several currencies/units)",
  );
});

test("a refused call sent again is told apart from packing", () => {
  const first = all.slice(0, 40);
  const excess = groupExcess(
    [call(first, 429), call(first), call([...all.slice(40), ...all.slice(0, 10)])],
    bound,
    byCode,
  );
  expect(excess).toEqual([
    {
      group: "industry_economics/utilities/series_hist",
      calls: 3,
      bound: 2,
      refused: 1,
      sizes: [40, 20],
      repeatedCodes: 10,
    },
  ]);
  expect(describeGroupExcess(excess)).toContain("3 calls vs 2, 1 of them refused and sent again");
});
