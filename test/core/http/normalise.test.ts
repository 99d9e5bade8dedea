import { toMonth } from "../../../src/core/http/normalise";

// Plain "YYYY-MM-DD" and "YYYY-MM" texts are read digit by digit; everything else by the
// general reading. Each row is checked as given and, where a plain text, with a space
// around it (which only the general reading accepts): both readings must agree.
describe("toMonth", () => {
  test.each<[unknown, string | null]>([
    ["2026-02-01", "2026-02"],
    ["2026-02", "2026-02"],
    ["2026-12-31", "2026-12"],
    ["0999-01-15", "0999-01"],
    ["2026-13-01", null],
    ["2026-00-10", null],
    ["2026-02-00", null],
    ["2026-02-32", null],
    ["2026-13", null],
    ["2026/02/01", null],
    ["2026-2-01", null],
    ["2026-02-1x", null],
    ["abcd-02-01", null],
    ["2026-02-01T00:00:00Z", "2026-02"],
    ["2026-02-01 12:30", "2026-02"],
    [20260201, null],
    [null, null],
    ["", null],
  ])("%j -> %j", (value, expected) => {
    expect(toMonth(value)).toBe(expected);
    if (typeof value === "string" && value !== "") expect(toMonth(` ${value} `)).toBe(expected);
  });
});
