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
    },
  ],
  [[[{ type: "FormattedNumber", basicValue: 45292, numberFormat: "yyyy-mm-dd" }]], { value: 45292 }],
  [[["only"]], { value: "only" }],
  [
    new ShimCustomFunctionsError("#N/A", "Not signed in"),
    { error: { type: "#N/A", message: "Not signed in" } },
  ],
  [new ShimCustomFunctionsError("#VALUE!"), { error: { type: "#VALUE!", message: "" } }],
])("%j is reported as %j", (result, output) => {
  expect(toCellOutput(result)).toEqual(output);
});

const REPORT: RunReport = {
  settled: true,
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
        },
        { formula: '=PCD.VALUE("9")', error: { type: "#VALUE!", message: "code is bad" } },
      ],
      http: { access_token: 1, series_info: 3, series_values: 0, series_hist: 1, data_limits: 0 },
      dataRequests: 1,
      ms: 12,
    },
  ],
};

test("JSON output has exactly the documented shape", () => {
  expect(JSON.parse(reportJson(REPORT))).toEqual({
    passes: [{ results: REPORT.passes[0]?.results, http: REPORT.passes[0]?.http, dataRequests: 1, ms: 12 }],
  });
});

test("JSON output carries the refresh summary and stuck formulas when there are some", () => {
  const refresh = {
    updated: 1,
    revised: 0,
    unchanged: 2,
    failed: 0,
    requestsUsed: 1,
    failures: [],
    startedAt: 1,
    finishedAt: 2,
  };
  const stuckPass = { ...REPORT.passes[0]!, stuck: ['=PCD.VALUE("1-2-3")'] };
  const document = JSON.parse(reportJson({ settled: false, refresh, passes: [stuckPass] }));
  expect(document.refresh).toEqual(refresh);
  expect(document.passes[0].stuck).toEqual(['=PCD.VALUE("1-2-3")']);
});

test("the text table aligns columns, lets the identifier line span, and shows errors with their type", () => {
  expect(reportText(REPORT)).toBe(
    [
      "Pass 1: 12 ms; HTTP calls: access_token 1, series_info 3, series_values 0, series_hist 1, data_limits 0; data requests: 1",
      '=PCD.VALUES("1-2-3",,,,,2)',
      "    1-2-3 Long identifier line (EUR/MWh)",
      "    Date   Value  Status",
      "    45292  1.5    final",
      '=PCD.VALUE("9")',
      "    #VALUE! code is bad",
      "",
    ].join("\n"),
  );
});
