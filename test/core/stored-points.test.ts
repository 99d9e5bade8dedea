import * as v from "valibot";
import { packPoints, StoredPointsSchema, unpackPoints } from "../../src/core/stored-points";

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
  ])("%s survive packing and unpacking", (_case, points) => {
    const packed = packPoints(points);
    expect(v.is(StoredPointsSchema, packed)).toBe(true);
    expect(unpackPoints(packed)).toEqual(points);
  });

  test("months are plain month indexes (January 2024 is 2024 * 12)", () => {
    expect(packPoints([{ month: "2024-01", value: 7 }])).toEqual({ months: [2024 * 12], values: [7] });
  });

  test("unpacked series share one string per month", () => {
    const [a] = unpackPoints({ months: [24300], values: [1] });
    const [b] = unpackPoints({ months: [24300], values: [2] });
    expect(a?.month).toBe("2025-01");
    expect(Object.is(a?.month, b?.month)).toBe(true);
  });

  test.each([
    ["lengths differ", { months: [1, 2], values: [1] }],
    ["a month that is not an integer", { months: [1.5], values: [1] }],
    ["a value that is not a number", { months: [1], values: ["1"] }],
  ])("rejects a stored form where %s", (_case, stored) => {
    expect(v.is(StoredPointsSchema, stored)).toBe(false);
  });
});
