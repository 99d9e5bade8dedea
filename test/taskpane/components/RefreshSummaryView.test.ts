// The refresh summary as the pane renders it: failures named once per series, never cut
// mid-list, and the release's changes grouped by series code.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RefreshSummary } from "../../../src/core/engine-api";
import type { SeriesReleaseChanges } from "../../../src/core/release-changes";
import { RefreshSummaryView } from "../../../src/taskpane/components/RefreshSummaryView";
import { PaneServicesProvider, type PaneServices } from "../../../src/taskpane/pane-services";

const FINISHED = Date.parse("2026-11-05T10:00:00Z");

const summary = (fields: Partial<RefreshSummary>): RefreshSummary => ({
  updated: 0,
  revised: 0,
  unchanged: 0,
  failed: 0,
  requestsUsed: 0,
  failures: [],
  startedAt: FINISHED - 1000,
  finishedAt: FINISHED,
  ...fields,
});

const failure = (code: string, message: string, key = `${code}|EUR|MWh`) => ({ key, code, message });

/** The pane's services as far as the summary uses them: only Write report's action. */
const services = {
  actions: { writeReport: async () => "'PCD changes 2026-11'!A1:H3" },
} as unknown as PaneServices;

const text = (shown: RefreshSummary): string =>
  renderToStaticMarkup(
    createElement(PaneServicesProvider, {
      services,
      children: createElement(RefreshSummaryView, { summary: shown }),
    }),
  )
    .replace(/<[^>]+>/g, "\n")
    .replace(/\n+/g, "\n");

test.each<[string, RefreshSummary["failures"], string[], string[]]>([
  [
    "a series failing once per request key is named once",
    [
      failure("64643-1-12", "No data", "64643-1-12|EUR|MWh"),
      failure("68520-8-1", "No data"),
      failure("64643-1-12", "No data", "64643-1-12|EUR|MMBtu"),
    ],
    ["2 series (64643-1-12, 68520-8-1): No data"],
    ["Show all"],
  ],
  ["one series: its code", [failure("68520-8-1", "Timed out")], ["68520-8-1: Timed out"], ["series ("]],
  [
    "more series than a line names: a count, and every code behind Show all",
    ["1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5", "2-2-2"].map((code) => failure(code, "Outage")),
    ["5 series: Outage", "Show all 5", "1-1-1, 2-2-2, 3-3-3, 4-4-4, 5-5-5"],
    ["…", "and 2 more", "5 series ("],
  ],
])("failures: %s", (_name, failures, shown, absent) => {
  const rendered = text(summary({ failed: failures.length, failures }));
  for (const line of shown) expect(rendered).toContain(line);
  for (const line of absent) expect(rendered).not.toContain(line);
});

test("the release's changes are counted and listed by series code, each key's value beside the other", () => {
  const keyed = (unit: string, before: number, after: number, added: number): SeriesReleaseChanges => ({
    key: `64643-1-12|EUR|${unit}`,
    code: "64643-1-12",
    currency: "EUR",
    unit,
    months: [
      { month: "2026-08", kind: "revised", before, after, changePercent: ((after - before) / before) * 100 },
      { month: "2026-10", kind: "new", before: null, after: added, changePercent: null },
    ],
  });
  const rendered = text(summary({ changes: [keyed("MWh", 10, 11, 12), keyed("MMBtu", 2.93, 3.223, 3.52)] }));
  expect(rendered).toContain("1 new month, 1 revised month in 1 series.");
  expect(rendered).toContain(
    "64643-1-12 2026-08: revised 10 → 11 EUR/MWh (+10 %); 2.93 → 3.223 EUR/MMBtu (+10 %)",
  );
  expect(rendered).toContain("64643-1-12 2026-10: new month 12 EUR/MWh; 3.52 EUR/MMBtu");
});

// Through a team gateway the answers it served from what it keeps cost nothing: the count is of
// its answers, not of the team's charge.
test.each<[string, Partial<RefreshSummary>, string[], string[]]>([
  ["directly: the requests the service charged", { requestsUsed: 4 }, ["Requests used", "4"], ["gateway"]],
  [
    "through a gateway: its answers, and where the charge shows",
    { requestsUsed: 4, throughGateway: true },
    ["Requests answered", "4", "gateway answered these", "The usage bars show"],
    ["Requests used"],
  ],
])("requests: %s", (_name, fields, shown, absent) => {
  const rendered = text(summary(fields));
  for (const part of shown) expect(rendered).toContain(part);
  for (const part of absent) expect(rendered).not.toContain(part);
});
