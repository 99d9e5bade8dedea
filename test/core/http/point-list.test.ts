import { readPointList } from "../../../src/core/http/point-list";
import { parseSeriesValuesList } from "../../../src/core/http/schemas";

/** The points with a hole between them (JSON never has one; a list built by hand may). */
function holed(points: unknown[]): unknown[] {
  const list = [points[0]];
  list[2] = points[1];
  return list;
}

describe("readPointList (the fast reading of a record's points)", () => {
  test.each<[string, unknown, unknown]>([
    ["an empty list", [], []],
    [
      "plain dates and numbers",
      [
        { date: "2024-01-01", value: 1.5 },
        { date: "2024-02-01", value: -2 },
      ],
      [
        { month: "2024-01", value: 1.5 },
        { month: "2024-02", value: -2 },
      ],
    ],
    [
      "other date shapes, numeric texts and extra fields",
      [{ date: "2024-03-01T00:00:00Z", value: " 12.5 ", flag: "P" }],
      [{ month: "2024-03", value: 12.5 }],
    ],
  ])("reads %s", (_case, list, points) => {
    expect(readPointList(list)?.toPoints()).toEqual(points);
  });

  test.each<[string, unknown]>([
    ["not a list", { date: "2024-01-01", value: 1 }],
    ["a point that is not an object", [{ date: "2024-01-01", value: 1 }, "2024-02-01"]],
    ["a null point", [null]],
    ["a missing date", [{ value: 1 }]],
    ["a date that is not a date", [{ date: "2024-13-01", value: 1 }]],
    ["a value that is not a number", [{ date: "2024-01-01", value: "n/a" }]],
    ["a value that is not finite", [{ date: "2024-01-01", value: Number.POSITIVE_INFINITY }]],
    [
      "a hole",
      holed([
        { date: "2024-01-01", value: 1 },
        { date: "2024-03-01", value: 3 },
      ]),
    ],
  ])("leaves a list with %s to the schema", (_case, list) => {
    expect(readPointList(list)).toBeUndefined();
  });

  test("a date reads as its month every time, also after more distinct dates than it keeps", () => {
    const january = [{ date: "2024-01-01", value: 1 }];
    expect(readPointList(january)?.toPoints()).toEqual([{ month: "2024-01", value: 1 }]);
    // 5,000 months from 1000-01 on: more distinct date texts than the reader remembers.
    const many = Array.from({ length: 5000 }, (_, index) => {
      const year = 1000 + Math.floor(index / 12);
      const month = String((index % 12) + 1).padStart(2, "0");
      return { date: `${year}-${month}-01`, value: index };
    });
    const read = readPointList(many)?.toPoints();
    expect(read).toHaveLength(5000);
    expect(read?.[0]).toEqual({ month: "1000-01", value: 0 });
    expect(read?.[4999]).toEqual({ month: "1416-08", value: 4999 });
    expect(readPointList(many)?.toPoints()).toEqual(read);
    expect(readPointList(january)?.toPoints()).toEqual([{ month: "2024-01", value: 1 }]);
    expect(readPointList([{ date: "2024-01-31", value: 2 }])?.toPoints()).toEqual([
      { month: "2024-01", value: 2 },
    ]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["a bad date", { series_final_values: [{ date: "2024-13-01", value: 1 }] }, "series_final_values.0.date"],
    [
      "a bad forecast",
      { series_forecast_values: [{ date: "2024-01-01", value: "x" }] },
      "series_forecast_values.0.value",
    ],
    ["points that are not a list", { series_final_values: "none" }, "series_final_values"],
  ])("a record with %s is dropped with the schema's words", (_case, damage, path) => {
    const logs: string[] = [];
    const record = {
      code: "1-2-3",
      series_final_values: [{ date: "2024-01-01", value: 1 }],
      ...damage,
    };
    const result = parseSeriesValuesList([record], "series_values", new Set(["1-2-3"]), (_level, text) =>
      logs.push(text),
    );
    expect(result.size).toBe(0);
    expect(logs).toEqual([
      expect.stringMatching(new RegExp(`^Series Values: 1-2-3 dropped: ${path.replace(/\./g, "\\.")}: `)),
    ]);
  });
});
