import * as v from "valibot";
import { runInNewContext } from "node:vm";
import {
  packPoints,
  readPointColumns,
  readPointTexts,
  StoredPointColumnsSchema,
  StoredPointsSchema,
  unpackPoints,
  type StoredPointColumns,
} from "../../src/core/stored-points";
import { PointColumns } from "../../src/core/point-columns";

describe("stored points", () => {
  test.each([
    ["no points", []],
    ["one month", [{ month: "2026-10", value: 1.5 }]],
    [
      "a gap, negative and fractional values, year boundaries",
      [
        { month: "1999-12", value: -0.25 },
        { month: "2000-01", value: 0 },
        { month: "2024-02", value: 1234.5678 },
      ],
    ],
  ])(
    "%s survive packing and unpacking, through storage's copy and through a cache file's JSON",
    (_case, points) => {
      const packed = packPoints(PointColumns.fromPoints(points));
      expect(v.is(StoredPointColumnsSchema, packed)).toBe(true);
      expect(readPointColumns(structuredClone(packed))?.toPoints()).toEqual(points);
      // A cache file holds the values as a list of numbers (src/headless/cache-file.ts).
      const listed = { ...packed, values: Array.from(packed.values) };
      expect(readPointColumns(listed)?.toPoints()).toEqual(points);
    },
  );

  test("months are runs of plain month indexes (January 2024 is 2024 * 12), values the column itself", () => {
    const one = PointColumns.fromPoints([{ month: "2024-01", value: 7 }]);
    expect(packPoints(one)).toEqual({ months: `[[${2024 * 12},1]]`, values: new Float64Array([7]) });
    expect(packPoints(one).values).toBe(one.valuesColumn());
    const gap = packPoints(
      PointColumns.fromPoints([
        { month: "2024-01", value: 1 },
        { month: "2024-02", value: 2 },
        { month: "2024-04", value: 4 },
      ]),
    );
    expect(gap).toEqual({
      months: `[[${2024 * 12},2],[${2024 * 12 + 3},1]]`,
      values: new Float64Array([1, 2, 4]),
    });
    expect(
      readPointColumns(gap)
        ?.toPoints()
        .map((point) => point.month),
    ).toEqual(["2024-01", "2024-02", "2024-04"]);
  });

  test("a Float64Array of another realm (a clone made by another global) reads the same", () => {
    const foreign = runInNewContext("new Float64Array([1.5, 2.5])") as Float64Array;
    expect(foreign instanceof Float64Array).toBe(false);
    expect(readPointColumns({ months: "[[24000,2]]", values: foreign })?.toPoints()).toEqual([
      { month: "2000-01", value: 1.5 },
      { month: "2000-02", value: 2.5 },
    ]);
  });

  test.each<[string, StoredPointColumns | { months: string; values: unknown[] }]>([
    ["lengths differ", { months: "[[1,2]]", values: new Float64Array([1]) }],
    ["a run of no months", { months: "[[1,0]]", values: new Float64Array(0) }],
    ["a month that is not an integer", { months: "[[1.5,1]]", values: new Float64Array([1]) }],
    ["a negative month", { months: "[[-1,1]]", values: new Float64Array([1]) }],
    ["a month beyond 32 bits", { months: `[[${2 ** 31 - 1},2]]`, values: new Float64Array([1, 2]) }],
    ["runs out of order", { months: "[[5,1],[2,1]]", values: new Float64Array([1, 2]) }],
    ["a text that is not JSON", { months: "[[1,1]", values: new Float64Array([1]) }],
    ["a run far longer than the values", { months: "[[1,1000000000]]", values: new Float64Array([1]) }],
    ["a value that is not finite", { months: "[[1,2]]", values: new Float64Array([1, Number.NaN]) }],
    ["a listed value that is not a number", { months: "[[1,1]]", values: ["1"] }],
  ])("reads no columns where %s", (_case, stored) => {
    expect(readPointColumns(stored as StoredPointColumns)).toBeUndefined();
  });

  test.each<[string, unknown]>([
    ["values of another typed array", { months: "[[1,1]]", values: new Float32Array([1]) }],
    ["values as a JSON text (format 3's form)", { months: "[[1,1]]", values: "[1]" }],
    ["months as a list", { months: [[1, 1]], values: new Float64Array([1]) }],
  ])("the stored columns' shape is refused where %s", (_case, stored) => {
    expect(v.is(StoredPointColumnsSchema, stored)).toBe(false);
  });

  test("format 3's texts still read", () => {
    const texts = { months: `[[${2024 * 12},2],[${2024 * 12 + 3},1]]`, values: "[1,2,4]" };
    expect(readPointTexts(texts)).toEqual({ months: [24288, 24289, 24291], values: [1, 2, 4] });
  });

  test("unpacked series share one string per month", () => {
    const a = unpackPoints({ months: [24300], values: [1] });
    const b = unpackPoints({ months: [24300], values: [2] });
    expect(a?.monthAt(0)).toBe("2025-01");
    expect(Object.is(a?.monthAt(0), b?.monthAt(0))).toBe(true);
  });

  test("stored months out of order unpack to nothing (the entry is then not read)", () => {
    expect(unpackPoints({ months: [24301, 24300], values: [1, 2] })).toBeUndefined();
    expect(unpackPoints({ months: [24300, 24300], values: [1, 2] })).toBeUndefined();
  });

  test.each([
    ["lengths differ", { months: [1, 2], values: [1] }],
    ["a month that is not an integer", { months: [1.5], values: [1] }],
    ["a value that is not a number", { months: [1], values: ["1"] }],
  ])("rejects a stored form where %s", (_case, stored) => {
    expect(v.is(StoredPointsSchema, stored)).toBe(false);
  });

  test.each([
    ["lengths differ", { months: "[[1,2]]", values: "[1]" }],
    ["a run of no months", { months: "[[1,0]]", values: "[]" }],
    ["a month that is not an integer", { months: "[[1.5,1]]", values: "[1]" }],
    ["a negative month", { months: "[[-1,1]]", values: "[1]" }],
    ["a run that is not a pair", { months: "[[1]]", values: "[1]" }],
    ["months as plain indexes", { months: "[1]", values: "[1]" }],
    ["a value that is not a number", { months: "[[1,1]]", values: '["1"]' }],
    ["a text that is not JSON", { months: "[[1,1]", values: "[1]" }],
    ["a text that is not a list", { months: "1", values: "1" }],
    ["a run far longer than the values", { months: "[[1,1000000000]]", values: "[1]" }],
  ])("reads no points from texts where %s", (_case, texts) => {
    expect(readPointTexts(texts)).toBeUndefined();
  });
});
