import { checkMonthRange, parseMonthArgument } from "../../../src/functions/arguments/dates";

test.each([
  [null, null],
  ["", null],
  [39083, "2007-01"],
  [45351.75, "2024-02"],
  // Just outside the numbers read as years: serials.
  [1899, "1905-03"],
  [2101, "1905-10"],
  [2025.5, "1905-07"],
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

test.each<[unknown, number]>([
  [2025, 2025],
  [1900, 1900],
  [2100, 2100],
  ["2024", 2024],
  [" 2030 ", 2030],
])("%j in a date argument looks like a year", (input, year) => {
  expect(() => parseMonthArgument(input, "date")).toThrow(
    expect.objectContaining({
      kind: "input",
      details: expect.objectContaining({ argument: "date" }),
      message: `The date ${year} looks like a year: write "${year}-01" or DATE(${year},1,1) (a number here is a date serial, and ${year} is a day in 1905).`,
    }),
  );
});

test.each<[unknown, boolean, string]>([
  [
    "CHF",
    true,
    'The date "CHF" looks like a currency: it goes in the currency argument. Give the date as a date, e.g. "2024-01" or DATE(2024,1,1).',
  ],
  [
    " eur ",
    true,
    'The date "eur" looks like a currency: it goes in the currency argument. Give the date as a date, e.g. "2024-01" or DATE(2024,1,1).',
  ],
  [
    "MWh",
    true,
    'The date "MWh" looks like a unit: it goes in the unit argument. Give the date as a date, e.g. "2024-01" or DATE(2024,1,1).',
  ],
  [
    "USD",
    false,
    'The date "USD" looks like a currency: this function takes no currency. Give the date as a date, e.g. "2024-01" or DATE(2024,1,1).',
  ],
])(
  "%j in a date argument names what it looks like (currency and unit arguments: %s)",
  (input, hasCurrencyAndUnit, message) => {
    expect(() => parseMonthArgument(input, "date", { hasCurrencyAndUnit })).toThrow(
      expect.objectContaining({
        kind: "input",
        details: expect.objectContaining({ argument: "date" }),
        message,
      }),
    );
  },
);

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
