import { toCellOutput } from "../../src/headless/cell-output";
import { ShimCustomFunctionsError } from "../../src/headless/custom-functions-shim";
import { reportJson, reportText } from "../../src/headless/report-format";
import type { RunReport } from "../../src/headless/run-workbook";

test.each([
  [42, { value: 42 }],
  ["text", { value: "text" }],
  [
    [
      [1, "a"],
      [{ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" }, true],
    ],
    {
      value: [
        [1, "a"],
        [45292, true],
      ],
      iso: [
        [1, "a"],
        ["2024-01-01", true],
      ],
    },
  ],
  [
    [[{ type: "FormattedNumber", basicValue: 45292, numberFormat: "yyyy-mm-dd" }]],
    { value: 45292, iso: "2024-01-01" },
  ],
  [[[{ type: "Double", basicValue: 12.5, numberFormat: "0.00" }]], { value: 12.5 }],
  [[[45292]], { value: 45292 }],
  [[["only"]], { value: "only" }],
  [
    new ShimCustomFunctionsError("#N/A", "Not signed in"),
    { error: { type: "#N/A", message: "Not signed in" } },
  ],
  [new ShimCustomFunctionsError("#VALUE!"), { error: { type: "#VALUE!", message: "" } }],
])("%j is reported as %j", (result, output) => {
  expect(toCellOutput(result)).toEqual(output);
});

const HTTP = { access_token: 0, series_info: 3, series_values: 0, series_hist: 1, data_limits: 0 };
const NO_CALLS = { access_token: 0, series_info: 0, series_values: 0, series_hist: 0, data_limits: 0 };

const REPORT: RunReport = {
  environment: "live",
  settled: true,
  signIn: { http: { ...NO_CALLS, access_token: 1 }, dataRequests: 0, dataRequestsUnconfirmed: 0, ms: 5 },
  passes: [
    {
      results: [
        {
          formula: '=PCD.VALUES("1-2-3",,,,,2)',
          value: [
            ["1-2-3 Long identifier line (EUR/MWh)", "", ""],
            ["Date", "Value", "Status"],
            [45292, 1.5, "final"],
          ],
          iso: [
            ["1-2-3 Long identifier line (EUR/MWh)", "", ""],
            ["Date", "Value", "Status"],
            ["2024-01-01", 1.5, "final"],
          ],
        },
        { formula: '=PCD.VALUE("9")', error: { type: "#VALUE!", message: "code is bad" } },
      ],
      http: HTTP,
      dataRequests: 1,
      dataRequestsUnconfirmed: 0,
      ms: 12,
    },
  ],
  total: { http: { ...HTTP, access_token: 1 }, dataRequests: 1, dataRequestsUnconfirmed: 0, ms: 20 },
};

test("JSON output has exactly the documented shape", () => {
  expect(JSON.parse(reportJson(REPORT))).toEqual({
    environment: "live",
    signIn: REPORT.signIn,
    passes: [
      {
        results: REPORT.passes[0]?.results,
        http: HTTP,
        dataRequests: 1,
        dataRequestsUnconfirmed: 0,
        ms: 12,
      },
    ],
    total: REPORT.total,
    settled: true,
  });
});

test("JSON output carries the refresh with its calls, and a timed-out pass's stuck formulas and unconfirmed requests", () => {
  const refresh = {
    updated: 1,
    revised: 0,
    unchanged: 2,
    failed: 0,
    requestsUsed: 1,
    failures: [],
    startedAt: 1,
    finishedAt: 2,
    http: { ...NO_CALLS, series_info: 3, series_values: 1 },
    dataRequests: 4,
    dataRequestsUnconfirmed: 0,
    ms: 30,
  };
  const stuckPass = {
    ...REPORT.passes[0]!,
    dataRequestsUnconfirmed: 2,
    stuck: ['=PCD.VALUE("1-2-3")'],
  };
  const document = JSON.parse(
    reportJson({
      ...REPORT,
      settled: false,
      refresh,
      passes: [stuckPass],
      total: { ...REPORT.total, timedOut: true },
    }),
  );
  expect(document.refresh).toEqual(refresh);
  expect(document.passes[0]).toMatchObject({ stuck: ['=PCD.VALUE("1-2-3")'], dataRequestsUnconfirmed: 2 });
  expect(document).toMatchObject({ settled: false, total: { timedOut: true } });
});

test("the text table shows dates as YYYY-MM-DD, aligns columns, lets the identifier line span, and shows errors with their type", () => {
  expect(reportText(REPORT)).toBe(
    [
      "Environment: live",
      "Sign-in: 5 ms; HTTP calls: access_token 1, series_info 0, series_values 0, series_hist 0, data_limits 0; data requests: 0",
      "Pass 1: 12 ms; HTTP calls: access_token 0, series_info 3, series_values 0, series_hist 1, data_limits 0; data requests: 1",
      '=PCD.VALUES("1-2-3",,,,,2)',
      "    1-2-3 Long identifier line (EUR/MWh)",
      "    Date        Value  Status",
      "    2024-01-01  1.5    final",
      '=PCD.VALUE("9")',
      "    #VALUE! code is bad",
      "Total: 20 ms; HTTP calls: access_token 1, series_info 3, series_values 0, series_hist 1, data_limits 0; data requests: 1",
      "",
    ].join("\n"),
  );
});

test("the text report names a timed-out phase and requests sent without an answer", () => {
  const text = reportText({
    ...REPORT,
    settled: false,
    passes: [{ ...REPORT.passes[0]!, dataRequestsUnconfirmed: 2, stuck: ['=PCD.VALUE("9")'] }],
  });
  expect(text).toContain("data requests: 1 (+2 sent without an answer); timed out");
  expect(text).toContain('Did not settle: =PCD.VALUE("9")');
});

describe("tables shared between cells are converted once", () => {
  const dateCell = (serial: number): unknown => ({
    type: "FormattedNumber",
    basicValue: serial,
    numberFormat: "yyyy-mm-dd",
  });

  test("a frozen table gives the same output to every cell and pass", () => {
    const table = Object.freeze([
      Object.freeze([dateCell(45292), 1.5]),
      Object.freeze([dateCell(45323), 2.5]),
    ]);
    const first = toCellOutput(table);
    expect(first).toEqual({
      value: [
        [45292, 1.5],
        [45323, 2.5],
      ],
      iso: [
        ["2024-01-01", 1.5],
        ["2024-02-01", 2.5],
      ],
    });
    expect(toCellOutput(table)).toBe(first);
  });

  test("a table that can still change (not frozen) is converted each time, as it is then", () => {
    const table: unknown[][] = [[dateCell(45292), 1.5]];
    expect(toCellOutput(table)).toEqual({ value: [[45292, 1.5]], iso: [["2024-01-01", 1.5]] });
    table[0] = [dateCell(45292), 9];
    expect(toCellOutput(table)).toEqual({ value: [[45292, 9]], iso: [["2024-01-01", 9]] });
  });

  test("a frozen table of plain values is reported as the table itself, whose rows need no freezing", () => {
    // The functions freeze a shared table but not its rows (series-memo.ts): a frozen row of
    // numbers holds each number boxed.
    const table = Object.freeze([
      [45292, 1.5],
      [45323, 2.5],
    ]);
    const first = toCellOutput(table);
    expect(first).toEqual({ value: table });
    expect(toCellOutput(table)).toBe(first);
  });
});
