import { execFileSync } from "node:child_process";
import path from "node:path";

import {
  calendarToSerial,
  isoDateToSerial,
  monthToSerial,
  serialToCalendar,
  serialToMonth,
} from "../../src/functions/excel-dates";
import { typescriptProcessArgs } from "../support/typescript-process";

// Serials as Excel shows them (1900 date system).
const KNOWN_DATES: Array<[string, number]> = [
  ["1900-01-01", 1],
  ["1900-02-28", 59],
  ["1900-03-01", 61],
  ["1970-01-01", 25569],
  ["2007-01-01", 39083],
  ["2024-02-29", 45351],
  ["2025-06-01", 45809],
  ["9999-12-31", 2958465],
];

describe("date serials", () => {
  test.each(KNOWN_DATES)("%s is serial %d both ways", (iso, serial) => {
    const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
    expect(calendarToSerial({ year, month, day })).toBe(serial);
    expect(serialToCalendar(serial)).toEqual({ year, month, day });
    expect(isoDateToSerial(iso)).toBe(serial);
  });

  test.each([
    ["2007-01", 39083],
    ["2024-03", 45352],
    ["2025-12", 45992],
  ])("month %s starts at serial %d", (month, serial) => {
    expect(monthToSerial(month)).toBe(serial);
    expect(serialToMonth(serial)).toBe(month);
  });

  test.each([
    [39083.99, "2007-01"],
    [39113, "2007-01"],
    [39114, "2007-02"],
    [45351.5, "2024-02"],
  ])("serial %d (time of day ignored) falls in %s", (serial, month) => {
    expect(serialToMonth(serial)).toBe(month);
  });
});

// Far-apart zones (UTC+14, and UTC-8 with daylight saving time), each in its own process:
// Jest's sandboxed process.env cannot change the zone of the running process.
describe("conversions are identical in every time zone", () => {
  const probe = path.join(__dirname, "fixtures", "date-probe.ts");
  const runIn = (zone: string): { offsetMinutes: number } & Record<string, unknown> =>
    JSON.parse(
      execFileSync(process.execPath, typescriptProcessArgs(probe), {
        env: { ...process.env, TZ: zone },
        encoding: "utf8",
      }),
    ) as { offsetMinutes: number } & Record<string, unknown>;

  const kiritimati = runIn("Pacific/Kiritimati");
  const losAngeles = runIn("America/Los_Angeles");

  test("the zones were in effect", () => {
    expect(kiritimati.offsetMinutes).toBe(-840);
    expect(losAngeles.offsetMinutes).toBe(480);
  });

  test.each([kiritimati, losAngeles].map((result) => [result.offsetMinutes, result]))(
    "UTC offset %d min gives the exact serials and months",
    (_offset, result) => {
      const { offsetMinutes: _ignored, ...conversions } = result as { offsetMinutes: number };
      expect(conversions).toEqual({
        isoToSerial: [1, 61, 39083, 45351, 45361, 45599, 2958465],
        monthToSerial: [39083, 45352, 45597, 45992],
        serialToCalendar: [
          { year: 2007, month: 1, day: 1 },
          { year: 2007, month: 1, day: 1 },
          { year: 2024, month: 2, day: 29 },
          { year: 2024, month: 3, day: 10 },
          { year: 2024, month: 11, day: 3 },
          { year: 2024, month: 11, day: 3 },
        ],
        serialToMonth: ["2007-01", "2007-01", "2024-02", "2024-03", "2024-11", "2024-11"],
        parsedArguments: ["2024-03", "2024-03", "2024-11"],
      });
    },
  );
});

test("Excel's fictitious 1900-02-29 (serial 60) reads as February 1900", () => {
  expect(serialToCalendar(60)).toEqual({ year: 1900, month: 2, day: 29 });
  expect(serialToMonth(60)).toBe("1900-02");
});

test.each(["2024-02-30", "2024-13-01", "24-01-01", "2024-1-1", "x"])("%s is not an ISO date", (text) => {
  expect(isoDateToSerial(text)).toBeUndefined();
});

test("a malformed month is a programming error, not a silent NaN", () => {
  expect(() => monthToSerial("2024-1")).toThrow(RangeError);
});

test.each([
  "2024-001",
  "2024/01",
  "2024-0a",
  "2O24-01",
  " 2024-01",
  "2024-01 ",
  "2024-01-01",
  "",
  "２０２４-01",
])("month text %j is refused like any other malformed month", (month) => {
  expect(() => monthToSerial(month)).toThrow(new RangeError(`Not a month (YYYY-MM): ${month}`));
});
