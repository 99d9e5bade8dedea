import type { RefreshSummary } from "../../src/core/engine-api";
import { reportJson, reportText } from "../../src/headless/report-format";
import { ReportWriter } from "../../src/headless/report-writer";
import type { PassReport } from "../../src/headless/run-pass";
import type { RunReport } from "../../src/headless/run-workbook";

const HTTP = { access_token: 1, series_info: 3, series_values: 0, series_hist: 1, data_limits: 0 };

function pass(ms: number, extra: Partial<PassReport> = {}): PassReport {
  return {
    results: [
      {
        formula: '=PCD.VALUES("1-2-3")',
        value: [
          ["Date", "Value"],
          [45292, 1.5],
        ],
      },
      { formula: '=PCD.VALUE("9")', error: { type: "#VALUE!", message: "code is bad" } },
      { formula: '=PCD.VALUE("1-2-3")', value: 1.5 },
    ],
    http: HTTP,
    dataRequests: 1,
    ms,
    ...extra,
  };
}

const REFRESH: RefreshSummary = {
  updated: 1,
  revised: 0,
  unchanged: 2,
  failed: 1,
  requestsUsed: 1,
  failures: [{ key: "k", code: "1-2-3", message: "gone" }],
  startedAt: 1,
  finishedAt: 2,
};

test.each<[string, RunReport]>([
  ["no pass", { settled: true, passes: [] }],
  ["a refresh and no pass", { settled: true, passes: [], refresh: REFRESH }],
  ["one pass", { settled: true, passes: [pass(12)] }],
  [
    "a refresh, two passes, the second stuck",
    { settled: false, refresh: REFRESH, passes: [pass(12), pass(3, { stuck: ['=PCD.VALUE("1-2-3")'] })] },
  ],
])("written as it goes, %s reads as the whole report would", (_name, report) => {
  for (const json of [true, false]) {
    const chunks: string[] = [];
    const writer = new ReportWriter((chunk) => chunks.push(chunk), json);
    for (const entry of report.passes) writer.pass(entry, report);
    writer.end(report);
    expect(chunks.join("")).toBe(json ? `${reportJson(report)}\n` : reportText(report));
  }
});

test("each pass is handed on when it ends, not at the end of the run", () => {
  const chunks: string[] = [];
  const writer = new ReportWriter((chunk) => chunks.push(chunk), true);
  writer.pass(pass(12), {});
  expect(chunks.join("")).toContain('"ms":12');
  writer.end({});
  expect(JSON.parse(chunks.join("")).passes).toHaveLength(1);
});
