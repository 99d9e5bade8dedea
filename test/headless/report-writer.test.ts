import { reportJson, reportText } from "../../src/headless/report-format";
import { ReportWriter, type ReportFormat } from "../../src/headless/report-writer";
import type { PassReport } from "../../src/headless/run-pass";
import type { RunReport } from "../../src/headless/run-workbook";
import { emptyHttpCounts } from "../../src/headless/usage-meter";

function usage(dataRequests: number) {
  return {
    http: { ...emptyHttpCounts(), series_values: dataRequests },
    dataRequests,
    dataRequestsUnconfirmed: 0,
  };
}

function pass(index: number, stuck?: string[]): PassReport {
  return {
    ...usage(index),
    ms: 10 * index,
    results: [
      { formula: `=PCD.VALUE("68520-8-${index}")`, value: 100 + index },
      {
        formula: `=PCD.VALUES("68520-8-${index}")`,
        value: [
          ["Date", "Value"],
          [46023, 1.5],
        ],
        iso: [
          ["Date", "Value"],
          ["2026-01-01", 1.5],
        ],
      },
      { formula: '=PCD.VALUE("x")', error: { type: "#VALUE!", message: "'x' is not a PCD code." } },
    ],
    ...(stuck ? { stuck } : {}),
  };
}

function report(passes: PassReport[], withRefresh: boolean, throughGateway = false): RunReport {
  return {
    environment: "live",
    ...(throughGateway ? { throughGateway: true as const } : {}),
    signIn: { ...usage(0), ms: 5 },
    ...(withRefresh
      ? { refresh: { ...usage(2), ms: 7, updated: 2, revised: 0, unchanged: 0, failed: 0 } }
      : {}),
    passes,
    total: { ...usage(3), ms: 40, ...(passes.some((p) => p.stuck) ? { timedOut: true as const } : {}) },
    settled: !passes.some((p) => p.stuck),
  };
}

/** Drives the writer as runWorkbook does: the passes are handed over and not kept. */
async function streamed(format: ReportFormat, whole: RunReport): Promise<string> {
  const chunks: string[] = [];
  const writer = new ReportWriter(format, async (chunk) => {
    chunks.push(chunk);
  });
  const kept: RunReport = { ...whole, passes: [] };
  for (const each of whole.passes) {
    writer.onPass(each, kept);
    kept.passes.push({ ...each, results: [] });
  }
  await writer.finish(whole);
  return chunks.join("");
}

describe("ReportWriter", () => {
  test.each<[string, PassReport[], boolean, boolean]>([
    ["two passes, with a refresh", [pass(1), pass(2)], true, false],
    ["one pass, without a refresh", [pass(1)], false, false],
    ["no pass", [], false, false],
    ["a pass that did not settle", [pass(1, ['=PCD.VALUE("68520-8-9")'])], true, false],
    ["two passes through a team gateway", [pass(1), pass(2)], true, true],
  ])(
    "%s: writes what the whole report would be, pass by pass",
    async (_case, passes, withRefresh, gateway) => {
      const whole = report(passes, withRefresh, gateway);
      const json = await streamed("json", whole);
      expect(json).toBe(`${reportJson(whole)}\n`);
      expect(JSON.parse(json)).toEqual(JSON.parse(reportJson(whole)));
      expect(await streamed("text", whole)).toBe(reportText(whole));
    },
  );

  test("a pass is written when it ends, before the run does", async () => {
    const chunks: string[] = [];
    const writer = new ReportWriter("json", async (chunk) => {
      chunks.push(chunk);
    });
    const whole = report([pass(1)], false);
    writer.onPass(pass(1), whole);
    await Promise.resolve();
    await Promise.resolve();
    expect(chunks.join("")).toContain('"formula":"=PCD.VALUE(\\"68520-8-1\\")"');
    await writer.finish(whole);
  });
});
