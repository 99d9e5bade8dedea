import {
  LATEST_ONLY,
  neededParts,
  readNeed,
  unionNeed,
  WHOLE_SERIES,
  type SeriesNeed,
} from "../../src/core/series-need";

// The catalog's last final is 2026-10: the Series Values window is 2025-10..2026-10.
describe("neededParts", () => {
  test.each<[string, SeriesNeed, string | null, { history: boolean; window: boolean }]>([
    ["whole series", WHOLE_SERIES, "2026-10", { history: true, window: true }],
    ["latest value", LATEST_ONLY, "2026-10", { history: false, window: true }],
    [
      "from the window's first month",
      { from: "2025-10", to: null },
      "2026-10",
      { history: false, window: true },
    ],
    [
      "from the month before the window",
      { from: "2025-09", to: null },
      "2026-10",
      { history: true, window: true },
    ],
    ["old months only", { from: "2010-01", to: "2010-12" }, "2026-10", { history: true, window: false }],
    [
      "ends right before the window",
      { from: null, to: "2025-09" },
      "2026-10",
      { history: true, window: false },
    ],
    [
      "ends in the window's first month",
      { from: null, to: "2025-10" },
      "2026-10",
      { history: true, window: true },
    ],
    ["a forecast month", { from: "2027-02", to: "2027-02" }, "2026-10", { history: false, window: true }],
    ["no finals yet", WHOLE_SERIES, null, { history: false, window: true }],
  ])("%s", (_case, need, lastAvailableFinal, expected) => {
    expect(neededParts(need, lastAvailableFinal)).toEqual(expected);
  });
});

describe("unionNeed", () => {
  test.each<[SeriesNeed, SeriesNeed, SeriesNeed]>([
    [LATEST_ONLY, LATEST_ONLY, LATEST_ONLY],
    [LATEST_ONLY, WHOLE_SERIES, WHOLE_SERIES],
    [LATEST_ONLY, { from: "2010-01", to: "2010-12" }, { from: "2010-01", to: null }],
    [
      { from: "2010-01", to: "2010-12" },
      { from: "2012-01", to: "2013-06" },
      { from: "2010-01", to: "2013-06" },
    ],
    [{ from: "2026-01", to: "2026-03" }, LATEST_ONLY, { from: "2026-01", to: null }],
  ])("%j ∪ %j = %j", (a, b, expected) => {
    expect(unionNeed(a, b)).toEqual(expected);
    expect(unionNeed(b, a)).toEqual(expected);
  });

  test("a side that already is the union is returned itself, not copied", () => {
    const wide = { from: "2010-01", to: null };
    const narrow = { from: "2020-01", to: "2020-12" };
    expect(unionNeed(wide, narrow)).toBe(wide);
    expect(unionNeed(narrow, wide)).toBe(wide);
    expect(unionNeed(LATEST_ONLY, LATEST_ONLY)).toBe(LATEST_ONLY);
    expect(unionNeed(narrow, LATEST_ONLY)).not.toBe(narrow);
  });
});

describe("readNeed", () => {
  test.each<[unknown, SeriesNeed]>([
    [{ from: "latest", to: null }, LATEST_ONLY],
    [
      { from: "2010-01", to: "2010-12" },
      { from: "2010-01", to: "2010-12" },
    ],
    [{ from: null, to: null }, WHOLE_SERIES],
    [{ from: "yesterday", to: null }, WHOLE_SERIES],
    [{ from: "2010-01" }, WHOLE_SERIES],
    ["latest", WHOLE_SERIES],
    [null, WHOLE_SERIES],
  ])("%j -> %j", (stored, expected) => {
    expect(readNeed(stored)).toEqual(expected);
  });
});
