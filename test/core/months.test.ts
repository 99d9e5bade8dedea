import {
  digitsAt,
  laterMonth,
  monthIndex,
  monthOfIndex,
  monthsBetween,
  toMonth,
} from "../../src/core/months";

describe("months", () => {
  test.each([
    ["2026-01", "2026-01", 0],
    ["2025-12", "2026-01", 1],
    ["2026-03", "2025-03", -12],
    ["2007-01", "2026-10", 237],
  ])("monthsBetween(%s, %s) = %d", (from, to, expected) => {
    expect(monthsBetween(from, to)).toBe(expected);
  });

  test.each([
    ["2026-11-01", "2026-11"],
    ["2026-11", "2026-11"],
  ])("toMonth(%s) = %s", (date, month) => {
    expect(toMonth(date)).toBe(month);
  });

  test.each([
    ["2026-01", null, "2026-01"],
    [null, "2026-01", "2026-01"],
    ["2026-02", "2025-12", "2026-02"],
  ])("laterMonth(%s, %s) = %s", (a, b, expected) => {
    expect(laterMonth(a, b)).toBe(expected);
  });

  test.each([
    ["0000-01", 0],
    ["2024-01", 24288],
    ["2024-12-31", 24299],
    ["9999-12", 119999],
  ])("monthIndex(%s) = %d", (month, expected) => {
    expect(monthIndex(month)).toBe(expected);
  });

  test.each([
    [0, "0000-01"],
    [24288, "2024-01"],
    [24299, "2024-12"],
    [119999, "9999-12"],
    // The edges of the array of 1800-2299 and the months beyond it.
    [1799 * 12 + 11, "1799-12"],
    [1800 * 12, "1800-01"],
    [2299 * 12 + 11, "2299-12"],
    [2300 * 12, "2300-01"],
  ])("monthOfIndex(%d) = %s, and back", (index, expected) => {
    expect(monthOfIndex(index)).toBe(expected);
    expect(monthIndex(monthOfIndex(index))).toBe(index);
  });

  test.each(["Nov 2026", "2026/11", "2026-1", "202a-11", "", "2026-"])("rejects %j: not a month", (text) => {
    expect(() => monthIndex(text)).toThrow(`'${text}' is not a month`);
  });
});

test.each<[string, number, number, number]>([
  ["2024-05", 0, 4, 2024],
  ["2024-05", 5, 2, 5],
  ["x2024", 1, 4, 2024],
  ["20a4", 0, 4, -1],
  ["2024", 2, 4, -1],
  ["２０２４", 0, 4, -1],
])("digitsAt(%j, %d, %d) = %d", (text, start, count, value) => {
  expect(digitsAt(text, start, count)).toBe(value);
});
