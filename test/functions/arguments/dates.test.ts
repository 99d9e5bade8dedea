import { checkMonthRange, parseMonthArgument } from "../../../src/functions/arguments/dates";

test.each([
  [null, null],
  ["", null],
  [39083, "2007-01"],
  [45351.75, "2024-02"],
  ["2024-01", "2024-01"],
  ["2024-1", "2024-01"],
  [" 2024-02-29 ", "2024-02"],
  ["2024-12-31", "2024-12"],
])("%j is the month %j", (input, month) => {
  expect(parseMonthArgument(input, "start_date")).toBe(month);
});

test.each([
  ["2024/01", "start_date"],
  ["Jan 2024", "end_date"],
  ["2024-13", "date"],
  ["2023-02-29", "date"],
  ["2024", "start_date"],
  [0, "end_date"],
  [-5, "date"],
  [3e6, "date"],
  [true, "start_date"],
] as const)("%j is not a %s", (input, argument) => {
  expect(() => parseMonthArgument(input, argument)).toThrow(
    expect.objectContaining({
      kind: "input",
      details: expect.objectContaining({ argument }),
      message: expect.stringMatching(
        new RegExp(
          `^The ${argument} .* is not a date: use a date \\(e\\.g\\. DATE\\(2024,1,1\\)\\) or text "YYYY-MM" or "YYYY-MM-DD"`,
        ),
      ),
    }),
  );
});

test.each([
  [null, null],
  ["2024-01", null],
  [null, "2024-01"],
  ["2024-01", "2024-01"],
  ["2023-12", "2024-01"],
])("range %j to %j is accepted", (start, end) => {
  expect(() => checkMonthRange(start, end)).not.toThrow();
});

test("a start after the end is rejected naming both", () => {
  expect(() => checkMonthRange("2024-05", "2024-01")).toThrow(
    expect.objectContaining({
      kind: "input",
      message:
        "The start_date 2024-05 is after the end_date 2024-01: give a start month on or before the end month.",
    }),
  );
});
