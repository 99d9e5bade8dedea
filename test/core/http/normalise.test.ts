import { toMonth } from "../../../src/core/http/normalise";
import { monthOfIndex } from "../../../src/core/months";

describe("toMonth (the month of a point's date)", () => {
  test.each<[unknown, string | null]>([
    // Plain dates, read by their character codes.
    ["2024-01-15", "2024-01"],
    ["1999-12-31", "1999-12"],
    ["0999-06-01", "0999-06"],
    // Other shapes the service may send, read by the pattern.
    ["2024-01", "2024-01"],
    [" 2024-02-01 ", "2024-02"],
    ["2024-03-01T00:00:00Z", "2024-03"],
    ["2024-04-01 12:30:00+02:00", "2024-04"],
    // Not dates: null, whichever path looks at them.
    ["2024-13-01", null],
    ["2024-00-10", null],
    ["2024-01-32", null],
    ["2024-01-00", null],
    ["2024/01/15", null],
    ["2024-1-150", null],
    ["20240-1-15", null],
    ["2024-0a-15", null],
    ["２０２４-01-15", null],
    ["", null],
    [20240115, null],
    [null, null],
  ])("%j -> %j", (value, month) => {
    expect(toMonth(value)).toBe(month);
  });

  test("every date of a month gives the one string of that month (months.ts)", () => {
    const pooled = monthOfIndex(2024 * 12 + 4);
    for (const date of ["2024-05-01", "2024-05-31", "2024-05", "2024-05-02T08:00:00Z"]) {
      expect(Object.is(toMonth(date), pooled)).toBe(true);
    }
  });
});
