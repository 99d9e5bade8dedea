// Each invariant of the month suite can fail: a record where everything holds passes every
// check, and a row per invariant breaks it once and expects the check to name itself and
// the step (a check that cannot fail would let the month walk pass whatever happens).
import * as invariants from "./support/invariants";
import { MAX_CALLS_PER_OPERATION_PER_HOUR } from "./support/month-script";
import type { MonthRecord } from "./support/month-walk";

function goodMonth(): MonthRecord {
  return {
    observations: [
      {
        step: "an ordinary day",
        at: "2026-12-02T15:00:00.000Z",
        kind: "during",
        service: "up",
        engineSays: "up",
        cells: [
          { formula: '=PCD.VALUE("68520-8-1")', output: { value: 54.5 } },
          {
            formula: '=PCD.VALUE("68520-8-1",DATE(2031,1,1))',
            output: {
              error: {
                type: "#N/A",
                message: "No value for 68520-8-1 in 2031-01 (finals 2007-01 to 2026-10).",
              },
            },
          },
        ],
        refreshOffered: false,
        releaseSinceRefresh: false,
      },
    ],
    refreshes: [
      {
        step: "refresh after the release",
        service: "up",
        preview: [{ product: "energy_price", dataset: "Germany", requests: 2 }],
        charged: [{ product: "energy_price", dataset: "Germany", requests: 2 }],
        recalcDataCalls: [],
        cellsHadData: true,
      },
    ],
    usage: [
      {
        step: "refresh after the release",
        when: "after the refresh",
        rows: [{ product: "energy_price", dataset: "Germany", engine: 498, service: 498 }],
      },
    ],
    calls: [
      {
        at: Date.parse("2026-12-02T15:00:00Z"),
        operation: "series_info",
        status: 200,
        url: "http://127.0.0.1:3001/energy_price/v1/export/series",
      },
    ],
    userActions: [{ at: Date.parse("2026-12-03T13:00:00Z"), what: "refresh" }],
    seriesStart: { "68520-8-1": "2007-01" },
    errors: [],
  };
}

const dataCall = {
  at: Date.parse("2026-12-04T04:31:00Z"),
  operation: "series_values" as const,
  status: 200,
  url: "http://127.0.0.1:3001/energy_price/v1/export/series/68520-8-1",
};

const ROWS: ReadonlyArray<[string, invariants.Invariant, (month: MonthRecord) => void, RegExp]> = [
  [
    "serviceStateIsTold",
    invariants.serviceStateIsTold,
    (month) => {
      month.observations[0] = { ...month.observations[0]!, service: "outage" };
    },
    /service's state" broke:\n.*"an ordinary day".*the service is outage, the engine says up/,
  ],
  [
    "refreshOfferIsTrue",
    invariants.refreshOfferIsTrue,
    (month) => {
      month.observations[0] = { ...month.observations[0]!, refreshOffered: true };
    },
    /only once it is published" broke:\n.*"an ordinary day".*offers a refresh/,
  ],
  [
    "refreshOfferIsTrue (a published release not offered)",
    invariants.refreshOfferIsTrue,
    (month) => {
      month.observations[0] = { ...month.observations[0]!, releaseSinceRefresh: true };
    },
    /only once it is published" broke:\n.*"an ordinary day".*does not offer a refresh.*a release came out/,
  ],
  [
    "noCallInAnnouncedDowntime",
    invariants.noCallInAnnouncedDowntime,
    (month) => {
      month.calls.push({ ...dataCall, at: Date.parse("2026-12-15T13:00:00Z") });
    },
    /announced downtime.*broke:\n.*maintenance of the 15th.*: 1 series_values calls where 0 are documented probes/,
  ],
  [
    "noCallInAnnouncedDowntime (probes beyond the user's actions)",
    invariants.noCallInAnnouncedDowntime,
    (month) => {
      // One refresh on release day allows a Series Info probe per product: a fourth is a loop.
      for (let i = 0; i < 4; i += 1) {
        month.calls.push({ ...month.calls[0]!, at: Date.parse("2026-12-03T13:00:01Z") + i });
      }
    },
    /announced downtime.*broke:\n.*release-day downtime.*: 4 series_info calls where 3 are documented probes \(1 previews/,
  ],
  [
    "noCallLoop",
    invariants.noCallLoop,
    (month) => {
      for (let i = 0; i < MAX_CALLS_PER_OPERATION_PER_HOUR; i += 1) month.calls.push({ ...month.calls[0]! });
    },
    /per hour" broke:\n.*2026-12-02T15:00Z series_info: 41 calls/,
  ],
  [
    "usageIsDataLimits",
    invariants.usageIsDataLimits,
    (month) => {
      month.usage[0]!.rows[0]!.engine = 490;
    },
    /Data Limits" broke:\n.*"refresh after the release".*Germany: Usage says 490 left, the service 498/,
  ],
  [
    "previewIsCharge",
    invariants.previewIsCharge,
    (month) => {
      month.refreshes[0]!.charged = [{ product: "energy_price", dataset: "Germany", requests: 8 }];
    },
    /charges" broke:\n.*preview said energy_price\/Germany 2; the refresh charged energy_price\/Germany 8/,
  ],
  [
    "recalculationAfterRefreshIsFree",
    invariants.recalculationAfterRefreshIsFree,
    (month) => {
      month.refreshes[0]!.recalcDataCalls = [dataCall];
    },
    /no data call" broke:\n.*"refresh after the release": 1 data calls: series_values/,
  ],
  [
    "cellsSettleAfterBack",
    invariants.cellsSettleAfterBack,
    (month) => {
      month.observations.push({
        ...month.observations[0]!,
        step: "network back",
        kind: "settled",
        cells: [
          {
            formula: '=PCD.VALUE("1-1-1")',
            output: { error: { type: "#N/A", message: "PCD could not be reached (network)." } },
          },
        ],
      });
    },
    /settles within 20 min.*broke:\n.*"network back".*says "unreachable"/,
  ],
  [
    "messagesQuoteTheSeries",
    invariants.messagesQuoteTheSeries,
    (month) => {
      month.observations[0]!.cells.push({
        formula: '=PCD.VALUE("68520-8-1",DATE(2031,1,1))',
        output: {
          error: { type: "#N/A", message: "No value for 68520-8-1 in 2031-01 (finals 2025-10 to 2026-10)." },
        },
      });
    },
    /not the part cached" broke:\n.*"an ordinary day".*finals start in 2007-01; .*finals 2025-10 to 2026-10/,
  ],
];

test("a month where everything holds passes every invariant", () => {
  for (const [, check] of ROWS) expect(() => check(goodMonth())).not.toThrow();
});

test("a release not yet seen may go unoffered while the engine cannot know of it", () => {
  const month = goodMonth();
  month.observations[0] = { ...month.observations[0]!, releaseSinceRefresh: true, mayStillSay: "release" };
  expect(() => invariants.refreshOfferIsTrue(month)).not.toThrow();
});

test.each(ROWS)("%s names itself and the step when it breaks", (_name, check, breakIt, message) => {
  const month = goodMonth();
  breakIt(month);
  expect(() => check(month)).toThrow(message);
});
