import { releaseChanges, type ChangedMonth } from "../../src/core/release-changes";
import { PointColumns } from "../../src/core/point-columns";

const KEY = "live|energy_price|1-1-1|default|default";

function entry(points: Array<[string, number]>): {
  key: string;
  finals: PointColumns;
  currency: string | null;
  unit: string | null;
} {
  return {
    key: KEY,
    finals: PointColumns.fromPoints(points.map(([month, value]) => ({ month, value }))),
    currency: "EUR",
    unit: "MWh",
  };
}

describe("releaseChanges", () => {
  test.each<[string, Array<[string, number]> | undefined, Array<[string, number]>, ChangedMonth[] | null]>([
    ["no earlier entry: a first load, not a change", undefined, [["2026-01", 1]], null],
    ["an earlier entry without finals: a first load too", [], [["2026-01", 1]], null],
    ["nothing moved", [["2026-01", 1]], [["2026-01", 1]], null],
    [
      "a new month",
      [["2026-01", 100]],
      [
        ["2026-01", 100],
        ["2026-02", 110],
      ],
      [{ month: "2026-02", kind: "new", before: null, after: 110, changePercent: null }],
    ],
    [
      "a revision up and one down, with their change %",
      [
        ["2026-01", 100],
        ["2026-02", -50],
      ],
      [
        ["2026-01", 125],
        ["2026-02", -60],
      ],
      [
        { month: "2026-01", kind: "revised", before: 100, after: 125, changePercent: 25 },
        { month: "2026-02", kind: "revised", before: -50, after: -60, changePercent: -20 },
      ],
    ],
    [
      "a revision from 0 has no change %",
      [["2026-01", 0]],
      [["2026-01", 3]],
      [{ month: "2026-01", kind: "revised", before: 0, after: 3, changePercent: null }],
    ],
    [
      "revisions first, then new months, each oldest first",
      [
        ["2026-01", 1],
        ["2026-02", 2],
      ],
      [
        ["2026-03", 3],
        ["2026-02", 4],
        ["2026-01", 5],
      ],
      [
        { month: "2026-01", kind: "revised", before: 1, after: 5, changePercent: 400 },
        { month: "2026-02", kind: "revised", before: 2, after: 4, changePercent: 100 },
        { month: "2026-03", kind: "new", before: null, after: 3, changePercent: null },
      ],
    ],
    [
      "a month no longer held is not a change",
      [
        ["2025-12", 9],
        ["2026-01", 1],
      ],
      [["2026-01", 1]],
      null,
    ],
  ])("%s", (_name, before, after, expected) => {
    const changes = releaseChanges("1-1-1", before && entry(before), entry(after));
    if (expected === null) expect(changes).toBeNull();
    else expect(changes).toEqual({ key: KEY, code: "1-1-1", currency: "EUR", unit: "MWh", months: expected });
  });

  test("no entry after (the key failed) is no change", () => {
    expect(releaseChanges("1-1-1", entry([["2026-01", 1]]), undefined)).toBeNull();
  });
});
