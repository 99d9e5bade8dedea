import { addRange, coveredEnd, coversSpan, withinCoverage, type CoveredRange } from "../../src/core/coverage";
import { monthIndex } from "../../src/core/months";
import { PointColumns } from "../../src/core/point-columns";

const m = monthIndex;

describe("addRange", () => {
  test.each<[string, CoveredRange[], CoveredRange, CoveredRange[]]>([
    ["into nothing", [], { from: "2025-10", to: "2026-10" }, [{ from: "2025-10", to: "2026-10" }]],
    [
      "History right before the window joins it",
      [{ from: "2025-10", to: "2026-10" }],
      { from: null, to: "2025-09" },
      [{ from: null, to: "2026-10" }],
    ],
    [
      "the next release's window overlaps",
      [{ from: null, to: "2026-10" }],
      { from: "2025-11", to: "2026-11" },
      [{ from: null, to: "2026-11" }],
    ],
    [
      "a window two years later leaves a gap",
      [{ from: "2023-10", to: "2024-10" }],
      { from: "2025-10", to: "2026-10" },
      [
        { from: "2023-10", to: "2024-10" },
        { from: "2025-10", to: "2026-10" },
      ],
    ],
    [
      "History fills the gap",
      [
        { from: "2023-10", to: "2024-10" },
        { from: "2025-10", to: "2026-10" },
      ],
      { from: null, to: "2025-09" },
      [{ from: null, to: "2026-10" }],
    ],
  ])("%s", (_case, ranges, added, expected) => {
    expect(addRange(ranges, added)).toEqual(expected);
  });
});

describe("coversSpan", () => {
  const ranges: CoveredRange[] = [
    { from: null, to: "2012-12" },
    { from: "2025-10", to: "2026-10" },
  ];
  test.each<[string, number, number, boolean]>([
    ["from the first month", -Infinity, m("2010-06"), true],
    ["inside the window", m("2026-01"), m("2026-10"), true],
    ["across the gap", m("2012-06"), m("2025-11"), false],
    ["after the last month", m("2026-11"), m("2026-11"), false],
    ["an empty span", m("2026-11"), m("2026-10"), true],
  ])("%s", (_case, from, to, expected) => {
    expect(coversSpan(ranges, from, to)).toBe(expected);
  });

  test("coveredEnd and withinCoverage", () => {
    expect(coveredEnd(ranges)).toBe(m("2026-10"));
    expect(coveredEnd([])).toBeNull();
    const kept = withinCoverage(
      PointColumns.fromPoints(["2012-12", "2013-01", "2025-10"].map((month) => ({ month, value: 1 }))),
      ranges,
    );
    expect(kept.toPoints().map((point) => point.month)).toEqual(["2012-12", "2025-10"]);
  });

  const columnsOf = (months: string[]): PointColumns =>
    PointColumns.fromPoints(months.map((month, index) => ({ month, value: index })));
  test.each<[string, string[], string[]]>([
    ["no point", [], []],
    ["every point inside History", ["2001-01", "2012-11", "2012-12"], ["2001-01", "2012-11", "2012-12"]],
    ["the window's first to last month", ["2025-10", "2026-10"], ["2025-10", "2026-10"]],
    ["a point either side of the gap", ["2012-12", "2025-10"], ["2012-12", "2025-10"]],
    ["points in the gap are dropped", ["2012-12", "2013-01", "2025-09", "2025-10"], ["2012-12", "2025-10"]],
    ["a point after the window is dropped", ["2026-09", "2026-10", "2026-11"], ["2026-09", "2026-10"]],
    ["a point before the window only", ["2025-09"], []],
  ])("withinCoverage: %s", (_case, months, kept) => {
    const points = columnsOf(months);
    const result = withinCoverage(points, ranges);
    expect(result.toPoints()).toEqual(points.toPoints().filter((point) => kept.includes(point.month)));
    if (kept.length === months.length) expect(result).toBe(points);
  });

  test("withinCoverage tests no point one by one when one range spans the first to the last", () => {
    const points = columnsOf(["2025-10", "2026-01", "2026-10"]);
    const filter = jest.spyOn(points, "filterMonths");
    expect(withinCoverage(points, ranges)).toBe(points);
    expect(filter).not.toHaveBeenCalled();
    // Across the gap every point is tested (both ends are covered, the middle is not).
    const across = columnsOf(["2012-12", "2020-01", "2025-10"]);
    const acrossFilter = jest.spyOn(across, "filterMonths");
    expect(
      withinCoverage(across, ranges)
        .toPoints()
        .map((point) => point.month),
    ).toEqual(["2012-12", "2025-10"]);
    expect(acrossFilter).toHaveBeenCalledTimes(1);
  });

  test("withinCoverage gives back the very columns when every point is covered (no copy to keep)", () => {
    const points = PointColumns.fromPoints(["2012-12", "2025-10"].map((month) => ({ month, value: 1 })));
    expect(withinCoverage(points, ranges)).toBe(points);
    expect(points.toPoints().map((point) => point.month)).toEqual(["2012-12", "2025-10"]);
  });
});
