import type { SeriesReleaseChanges } from "../../src/core/release-changes";
import { REPORT_HEADER, reportRows, reportSheetName, reportTable } from "../../src/workbook/release-report";

const CHANGES: SeriesReleaseChanges[] = [
  {
    key: "live|energy_price|1-1-1|default|default",
    code: "1-1-1",
    currency: "EUR",
    unit: "MWh",
    months: [
      { month: "2026-08", kind: "revised", before: 100, after: 101, changePercent: 1 },
      { month: "2026-09", kind: "revised", before: 0, after: 5, changePercent: null },
      { month: "2026-11", kind: "new", before: null, after: 104, changePercent: null },
    ],
  },
  {
    key: "live|energy_price|2-2-2|default|default",
    code: "2-2-2",
    currency: null,
    unit: null,
    months: [
      { month: "2007-01", kind: "revised", before: 200, after: 150, changePercent: -25 },
      { month: "2007-02", kind: "revised", before: 200, after: 210, changePercent: 5 },
      { month: "2026-11", kind: "new", before: null, after: 90, changePercent: null },
    ],
  },
];

describe("release report", () => {
  test("rows sorted by the size of the change: |change %| descending, then revisions from 0, then new months", () => {
    expect(reportRows(CHANGES).map((row) => `${row.code} ${row.month}`)).toEqual([
      "2-2-2 2007-01",
      "2-2-2 2007-02",
      "1-1-1 2026-08",
      "1-1-1 2026-09",
      "1-1-1 2026-11",
      "2-2-2 2026-11",
    ]);
  });

  test("a month asked for in two currencies takes adjacent rows, as the pane's line for that month", () => {
    const key = (code: string, currency: string, unit: string) =>
      `live|energy_price|${code}|${currency}|${unit}`;
    const grouped: SeriesReleaseChanges[] = [
      {
        key: key("1-1-1", "EUR", "MWh"),
        code: "1-1-1",
        currency: "EUR",
        unit: "MWh",
        months: [{ month: "2026-08", kind: "revised", before: 100, after: 101, changePercent: 1 }],
      },
      {
        key: key("2-2-2", "EUR", "t"),
        code: "2-2-2",
        currency: "EUR",
        unit: "t",
        months: [{ month: "2026-08", kind: "revised", before: 100, after: 102, changePercent: 2 }],
      },
      {
        key: key("1-1-1", "USD", "MWh"),
        code: "1-1-1",
        currency: "USD",
        unit: "MWh",
        months: [
          { month: "2026-08", kind: "revised", before: 100, after: 103, changePercent: 3 },
          { month: "2026-11", kind: "new", before: null, after: 99, changePercent: null },
        ],
      },
    ];
    expect(reportTable(grouped).slice(1)).toEqual([
      ["1-1-1", "EUR", "MWh", "2026-08", "revised", 100, 101, 1],
      ["1-1-1", "USD", "MWh", "2026-08", "revised", 100, 103, 3],
      ["2-2-2", "EUR", "t", "2026-08", "revised", 100, 102, 2],
      ["1-1-1", "USD", "MWh", "2026-11", "new month", "", 99, ""],
    ]);
  });

  test("one row per changed month under a header, change % to two decimals", () => {
    const table = reportTable([
      {
        ...CHANGES[0]!,
        months: [{ month: "2026-08", kind: "revised", before: 3, after: 4, changePercent: 100 / 3 }],
      },
      CHANGES[1]!,
    ]);
    expect(table[0]).toEqual([...REPORT_HEADER]);
    expect(table.slice(1)).toEqual([
      ["1-1-1", "EUR", "MWh", "2026-08", "revised", 3, 4, 33.33],
      ["2-2-2", "", "", "2007-01", "revised", 200, 150, -25],
      ["2-2-2", "", "", "2007-02", "revised", 200, 210, 5],
      ["2-2-2", "", "", "2026-11", "new month", "", 90, ""],
    ]);
  });

  test("no changes: the header alone", () => {
    expect(reportTable([])).toEqual([[...REPORT_HEADER]]);
  });

  test.each<[number, string]>([
    [Date.UTC(2026, 11, 3, 10), "PCD changes 2026-12"],
    [Date.UTC(2027, 0, 1), "PCD changes 2027-01"],
  ])("the sheet is named by the refresh's month (%d → %s)", (finishedAt, name) => {
    expect(reportSheetName(finishedAt)).toBe(name);
  });
});
