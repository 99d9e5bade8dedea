// The report as printed: it always names the environment, and service text in it reaches
// the terminal with its control characters escaped, in text and in JSON.
import { reportJson, reportText } from "../../src/headless/report-format";
import type { RunReport } from "../../src/headless/run-workbook";
import { emptyHttpCounts } from "../../src/headless/usage-meter";

const PHASE = { http: emptyHttpCounts(), dataRequests: 0, dataRequestsUnconfirmed: 0, ms: 1 };
const TITLE = "\u001b]0;pwned\u0007";
const CLEAR = "\u001b[2J\u001b[H";
const LINK = "\u001b]8;;https://evil.example\u001b\\here\u001b]8;;\u001b\\";

function hostileReport(environment: RunReport["environment"]): RunReport {
  return {
    environment,
    signIn: { ...PHASE, error: `Sign-in failed: ${TITLE}` },
    refresh: {
      ...PHASE,
      updated: 0,
      revised: 0,
      unchanged: 0,
      failed: 1,
      failures: [{ key: "1-2-3", code: `1-2-3${CLEAR}`, message: `gone ${LINK}` }],
    },
    passes: [
      {
        ...PHASE,
        results: [
          { formula: '=PCD.INFO("1-2-3","description")', value: `Gas${TITLE}\u009b2J` },
          { formula: '=PCD.SEARCH("gas")', value: [[`a${CLEAR}`, "b\nTotal: forged"]] },
          { formula: '=PCD.VALUE("1-2-3")', error: { type: "#N/A", message: `Unknown${LINK}` } },
        ],
        stuck: [`=PCD.VALUE("${CLEAR}")`],
      },
    ],
    total: PHASE,
    settled: false,
  };
}

// eslint-disable-next-line no-control-regex -- a terminal acts on these; only the line breaks are the report's
const RAW_CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test("text: every control character of service text is escaped, and no line is forged", () => {
  const text = reportText(hostileReport("live"));
  expect(text).not.toMatch(RAW_CONTROL_BUT_NEWLINE);
  expect(text).toContain("Gas\\x1B]0;pwned\\x07\\x9B2J");
  expect(text).toContain("b\\x0ATotal: forged");
  expect(text.split("\n").filter((line) => line.startsWith("Total:"))).toHaveLength(1);
});

test("JSON: no raw control character, and the same values once parsed", () => {
  const json = reportJson(hostileReport("live"));
  expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/); // eslint-disable-line no-control-regex
  expect(JSON.parse(json).passes[0].results[0].value).toBe(`Gas${TITLE}\u009b2J`);
});

test.each([
  ["live", "Environment: live"],
  ["sandbox", "Environment: sandbox (test values, not live data)"],
] as const)("the report names the environment: %s", (environment, line) => {
  const report = hostileReport(environment);
  expect(reportText(report).split("\n")[0]).toBe(line);
  expect(JSON.parse(reportJson(report)).environment).toBe(environment);
});

const COUNTED_LINES = /^(Sign-in|Refresh|Pass 1|Total): /;

test.each([
  {
    route: "the service itself",
    throughGateway: undefined,
    counted: "; data requests: 0",
    gatewayLine: false,
  },
  {
    route: "a team gateway",
    throughGateway: true as const,
    counted: "; requests answered: 0",
    gatewayLine: true,
  },
])("through $route, the counts are named for what they are", ({ throughGateway, counted, gatewayLine }) => {
  const report: RunReport = { ...hostileReport("live"), ...(throughGateway ? { throughGateway } : {}) };
  const lines = reportText(report).split("\n");
  const countLines = lines.filter((line) => COUNTED_LINES.test(line));
  expect(countLines).toHaveLength(4);
  for (const line of countLines) expect(line).toContain(counted);
  expect(lines[1]?.startsWith("Through a team gateway: requests answered are the codes it served")).toBe(
    gatewayLine,
  );
  expect(JSON.parse(reportJson(report)).throughGateway).toBe(throughGateway);
});
