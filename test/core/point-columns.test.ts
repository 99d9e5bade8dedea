import type { Month, MonthlyPoint } from "../../src/core/model";
import { monthIndex } from "../../src/core/months";
import { PointColumns } from "../../src/core/point-columns";
import { monthlyPoints } from "../support/series-records";

const p = (month: string, value: number): MonthlyPoint => ({ month, value });

const gapped = PointColumns.fromPoints([p("2024-01", 1), p("2024-02", 2), p("2024-05", 5), p("2025-01", 13)]);
const run = PointColumns.fromPoints(monthlyPoints("2007-01", 240, 3));

describe("valueIn", () => {
  test.each<[string, PointColumns, Month, number | undefined]>([
    ["the first month", gapped, "2024-01", 1],
    ["a month before a gap", gapped, "2024-02", 2],
    ["a month after a gap (found by search)", gapped, "2024-05", 5],
    ["the last month, across a year", gapped, "2025-01", 13],
    ["a month inside a gap", gapped, "2024-03", undefined],
    ["a month before the series", gapped, "2023-12", undefined],
    ["a month after the series", gapped, "2025-02", undefined],
    ["no points", PointColumns.EMPTY, "2024-01", undefined],
    ["a whole run without gaps (found by its distance)", run, "2019-06", 3 + 149],
    ["just past a run", run, "2027-01", undefined],
  ])("%s", (_case, columns, month, expected) => {
    expect(columns.valueIn(month)).toBe(expected);
    expect(columns.has(month)).toBe(expected !== undefined);
  });
});

describe("construction", () => {
  test.each<[string, MonthlyPoint[], MonthlyPoint[]]>([
    ["oldest first", [p("2024-01", 1), p("2024-02", 2)], [p("2024-01", 1), p("2024-02", 2)]],
    [
      "newest first (the service's order)",
      [p("2024-02", 2), p("2024-01", 1)],
      [p("2024-01", 1), p("2024-02", 2)],
    ],
    [
      "mixed order with a repeated month: the last one seen wins",
      [p("2024-03", 3), p("2024-01", 1), p("2024-03", 9), p("2024-02", 2)],
      [p("2024-01", 1), p("2024-02", 2), p("2024-03", 9)],
    ],
    ["nothing", [], []],
  ])("%s", (_case, given, expected) => {
    const columns = PointColumns.fromPoints(given);
    expect(columns.toPoints()).toEqual(expected);
    expect([...columns]).toEqual(expected);
    expect(columns.length).toBe(expected.length);
    expect(columns.firstMonth()).toBe(expected[0]?.month ?? null);
    expect(columns.lastMonth()).toBe(expected[expected.length - 1]?.month ?? null);
  });

  test.each([
    ["months not ascending", [2, 1], [1, 2]],
    ["a month twice", [1, 1], [1, 2]],
    ["lengths that differ", [1, 2], [1]],
  ])("fromIndexes refuses %s", (_case, months, values) => {
    expect(() => PointColumns.fromIndexes(months, values)).toThrow(RangeError);
  });

  test("positions read the months and values in order, with and without gaps", () => {
    expect(gapped.indexAt(2)).toBe(monthIndex("2024-05"));
    expect(gapped.monthAt(3)).toBe("2025-01");
    expect(gapped.valueAt(3)).toBe(13);
    expect(run.monthAt(12)).toBe("2008-01");
    expect(run.positionOfIndex(monthIndex("2008-01"))).toBe(12);
  });

  test("JSON writes the points as objects (cache files and the cache's size)", () => {
    expect(JSON.parse(JSON.stringify({ finals: gapped }))).toEqual({ finals: gapped.toPoints() });
  });
});

describe("equals and filterMonths", () => {
  test.each<[string, PointColumns, PointColumns, boolean]>([
    ["the same points", gapped, PointColumns.fromPoints(gapped.toPoints()), true],
    [
      "a changed value",
      gapped,
      PointColumns.fromPoints([...gapped.toPoints().slice(0, 3), p("2025-01", 14)]),
      false,
    ],
    [
      "a moved month",
      PointColumns.fromPoints([p("2024-01", 1)]),
      PointColumns.fromPoints([p("2024-02", 1)]),
      false,
    ],
    ["one point more", gapped, PointColumns.fromPoints([...gapped.toPoints(), p("2025-02", 1)]), false],
    ["both empty", PointColumns.EMPTY, PointColumns.fromPoints([]), true],
  ])("%s", (_case, a, b, expected) => {
    expect(a.equals(b)).toBe(expected);
    expect(b.equals(a)).toBe(expected);
  });

  test("filterMonths keeps the months that pass, and gives back the same columns when all do", () => {
    const from = monthIndex("2024-03");
    expect(gapped.filterMonths((month) => month >= from).toPoints()).toEqual([
      p("2024-05", 5),
      p("2025-01", 13),
    ]);
    expect(gapped.filterMonths(() => true)).toBe(gapped);
    expect(gapped.filterMonths(() => false).length).toBe(0);
  });
});

describe("the stored form's parts", () => {
  test.each<[string, PointColumns]>([
    ["a run", run],
    ["gaps", gapped],
    ["nothing", PointColumns.EMPTY],
    [
      "awkward numbers",
      PointColumns.fromPoints([
        p("2024-01", -0),
        p("2024-02", 1e21),
        p("2024-03", 1 / 3),
        p("2024-04", -2.5e-7),
      ]),
    ],
  ])("%s: the values column holds the values, and the runs spell the months", (_case, columns) => {
    const points = columns.toPoints();
    expect(Array.from(columns.valuesColumn())).toEqual(points.map((point) => point.value));
    const months = columns
      .monthRuns()
      .flatMap(([first, count]) => Array.from({ length: count }, (_, i) => first + i));
    expect(months).toEqual(points.map((point) => monthIndex(point.month)));
  });

  test("the values column is the column itself when it is its whole buffer, else a copy of its part", () => {
    // A structured clone of a typed array copies its whole buffer: a part is stored alone.
    const whole = PointColumns.fromIndexes([1, 2], new Float64Array([5, 6]));
    expect(whole.valuesColumn()).toBe(whole.valuesColumn());
    const part = PointColumns.fromIndexes([1, 2], new Float64Array([9, 5, 6, 9]).subarray(1, 3));
    const stored = part.valuesColumn();
    expect(Array.from(stored)).toEqual([5, 6]);
    expect(stored.buffer.byteLength).toBe(2 * Float64Array.BYTES_PER_ELEMENT);
    expect(structuredClone(stored).buffer.byteLength).toBe(16);
  });
});

describe("positionFrom and copyTo", () => {
  const consecutive = PointColumns.fromPoints([
    { month: "2026-01", value: 1 },
    { month: "2026-02", value: 2 },
    { month: "2026-03", value: 3 },
  ]);
  const gapped = PointColumns.fromPoints([
    { month: "2026-01", value: 1 },
    { month: "2026-03", value: 3 },
    { month: "2026-06", value: 6 },
  ]);
  test.each<[string, PointColumns, Month, number]>([
    ["before the first month", consecutive, "2025-06", 0],
    ["the first month", consecutive, "2026-01", 0],
    ["a month inside", consecutive, "2026-02", 1],
    ["after the last month", consecutive, "2026-09", 3],
    ["gaps: a month held", gapped, "2026-03", 1],
    ["gaps: a month in a gap", gapped, "2026-04", 2],
    ["gaps: after the last month", gapped, "2027-01", 3],
    ["gaps: before the first month", gapped, "2020-01", 0],
  ])("positionFrom: %s", (_name, columns, month, position) => {
    expect(columns.positionFrom(monthIndex(month))).toBe(position);
  });

  test.each<[string, PointColumns, number, number, number[], number[]]>([
    [
      "consecutive, the middle",
      consecutive,
      1,
      3,
      [0, 2, 3, 0],
      [0, monthIndex("2026-02"), monthIndex("2026-03"), 0],
    ],
    [
      "gaps, from the start",
      gapped,
      0,
      2,
      [0, 1, 3, 0],
      [0, monthIndex("2026-01"), monthIndex("2026-03"), 0],
    ],
    ["nothing", gapped, 2, 2, [0, 0, 0, 0], [0, 0, 0, 0]],
  ])("copyTo: %s, at position 1", (_name, columns, from, to, values, months) => {
    const monthColumn = new Int32Array(4);
    const valueColumn = new Float64Array(4);
    columns.copyTo(monthColumn, valueColumn, from, to, 1);
    expect([...valueColumn]).toEqual(values);
    expect([...monthColumn]).toEqual(months);
  });
});
