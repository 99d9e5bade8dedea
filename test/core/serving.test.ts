import type { CacheEntry } from "../../src/core/cache";
import type { CoveredRange } from "../../src/core/coverage";
import { PcdError } from "../../src/core/errors";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../../src/core/series-need";
import { judgeServing, missingError } from "../../src/core/serving";
import type { SyncContext } from "../../src/core/sync-planner";
import { seriesInfo } from "./support/series-fixtures";
import { PointColumns } from "../../src/core/point-columns";

// The catalog now: last final 2026-10 (window 2025-10..2026-10), updated 2026-11-04.
const NOW = "2026-11-04";
const LAST = "2026-10-05";
const info = seriesInfo({ code: "1-1-1", lastAvailableFinal: "2026-10", updatedAt: NOW });
const real: SyncContext = { historyAvailable: true, historyReachesLatest: false };
const noHistory: SyncContext = { historyAvailable: false, historyReachesLatest: false };

function entry(covered: CoveredRange[], options: Partial<CacheEntry> = {}): CacheEntry {
  return {
    key: "live|energy_price|1-1-1|default|default",
    finals: PointColumns.EMPTY,
    forecasts: PointColumns.EMPTY,
    currency: "EUR",
    unit: "MWh",
    updatedAt: NOW,
    lastFinal: covered[covered.length - 1]?.to ?? null,
    fetchedAt: 0,
    catalogUpdatedAt: NOW,
    covered,
    valuesAsOf: NOW,
    historyAsOf: NOW,
    ...options,
  };
}

const complete = entry([{ from: null, to: "2026-10" }]);
const historyOnly = entry([{ from: null, to: "2025-09" }], { valuesAsOf: null });
const windowOnly = entry([{ from: "2025-10", to: "2026-10" }], { historyAsOf: null });
const lastRelease = entry([{ from: null, to: "2026-09" }], {
  valuesAsOf: LAST,
  historyAsOf: LAST,
  catalogUpdatedAt: LAST,
  forecasts: PointColumns.fromPoints([{ month: "2026-10", value: 5 }]),
});
const OLD: SeriesNeed = { from: "2010-01", to: "2010-12" };

describe("judgeServing", () => {
  test.each<[string, CacheEntry | undefined, SeriesNeed, SyncContext, string]>([
    ["nothing cached", undefined, LATEST_ONLY, real, "missing:the data"],
    ["complete, whole series", complete, WHOLE_SERIES, real, "fresh"],
    [
      "History only, latest value: never the last History month",
      historyOnly,
      LATEST_ONLY,
      real,
      "missing:the latest months",
    ],
    ["History only, whole table", historyOnly, WHOLE_SERIES, real, "missing:the latest months"],
    [
      "History only, a month in the window",
      historyOnly,
      { from: "2026-03", to: "2026-03" },
      real,
      "missing:the latest months",
    ],
    ["History only, old months", historyOnly, OLD, real, "fresh"],
    ["window only, latest value", windowOnly, LATEST_ONLY, real, "fresh"],
    ["window only, old months", windowOnly, OLD, real, "missing:the months before 2025-10"],
    ["last release complete, latest value", lastRelease, LATEST_ONLY, real, "stale"],
    ["last release complete, whole table", lastRelease, WHOLE_SERIES, real, "stale"],
    [
      "last release complete, the new month was a forecast",
      lastRelease,
      { from: "2026-10", to: "2026-10" },
      real,
      "stale",
    ],
    [
      "last release complete, a month it never had",
      lastRelease,
      { from: "2026-11", to: "2026-11" },
      real,
      "missing:2026-11",
    ],
    ["no History in the plan, whole table of what accumulated", windowOnly, WHOLE_SERIES, noHistory, "fresh"],
    ["no History in the plan, an old month", windowOnly, OLD, noHistory, "missing:the months before 2025-10"],
  ])("%s", (_case, cached, need, context, expected) => {
    const serving = judgeServing(cached, info, need, context);
    expect(serving.kind === "missing" ? `missing:${serving.what}` : serving.kind).toBe(expected);
  });
});

test("missingError puts the cause first and keeps its kind and details", () => {
  const cause = new PcdError("quota", "Monthly allowance used up for dataset 'Germany'.", {
    dataset: "Germany",
  });
  const error = missingError(cause, "1-1-1", "the latest months");
  expect(error).toMatchObject({
    kind: "quota",
    message:
      "Monthly allowance used up for dataset 'Germany': the latest months of 1-1-1 could not be fetched.",
    details: { dataset: "Germany" },
  });
});

test("a long cause is shortened so that what is missing stays within Excel's 255 characters", () => {
  const cause = new PcdError(
    "network",
    `PCD could not reach the service: ${"connection reset ".repeat(20)}(gave up after 4 retries).`,
  );
  const error = missingError(cause, "57935-3-12", "the latest months");
  expect(error.message.length).toBeLessThanOrEqual(255);
  expect(error.message).toMatch(
    /^PCD could not reach the service: connection reset .*…: the latest months of 57935-3-12 could not be fetched\.$/,
  );
});

// A team gateway's refusal for the member's budget ends with what to do: that is never cut.
test.each<[string, string, string]>([
  [
    "too long for both: the gateway's sentence alone, whole",
    "Quota limit reached for member ana.lopez@team.example: until 2026-12-03 the gateway's budget of 100 data requests " +
      "for dataset 'Northwest Europe' has 3 left; this request needs 5. Ask the gateway's administrator to raise the budget.",
    "Quota limit reached for member ana.lopez@team.example: until 2026-12-03 the gateway's budget of 100 data requests " +
      "for dataset 'Northwest Europe' has 3 left; this request needs 5. Ask the gateway's administrator to raise the budget.",
  ],
  [
    "too long even alone: shortened in its middle, its last sentence whole",
    "Quota limit reached for member maria.gonzalez-fernandez@contoso-engineering.example: until 2026-12-03 the gateway's budget of 1000 " +
      "data requests for dataset 'Alcohols & Organics Acids' has 120 left; this request needs 400. " +
      "Ask the gateway's administrator to raise the budget.",
    "Quota limit reached for member maria.gonzalez-fernandez@contoso-engineering.example: until 2026-12-03 the gateway's budget of 1000 " +
      "data requests for dataset 'Alcohols & Organics Acids' has 120 left; th… " +
      "Ask the gateway's administrator to raise the budget.",
  ],
  [
    "room for both: what is missing follows",
    "Quota limit reached for member a@t.example: budget of 1 for dataset 'DE' has 0 left. Ask the administrator.",
    "Quota limit reached for member a@t.example: budget of 1 for dataset 'DE' has 0 left. Ask the administrator: the latest months of 57935-3-12 could not be fetched.",
  ],
])("missingError with a gateway's member-budget refusal: %s", (_name, said, expected) => {
  const cause = new PcdError("quota", said, { dataset: "Germany", memberBudget: true });
  const error = missingError(cause, "57935-3-12", "the latest months");
  expect(error.message).toBe(expected);
  expect(error.message.length).toBeLessThanOrEqual(255);
  expect(error.details).toEqual({ dataset: "Germany", memberBudget: true });
});
