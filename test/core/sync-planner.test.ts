import type { CoveredRange } from "../../src/core/coverage";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../../src/core/series-need";
import {
  planSync,
  reaches,
  requestsFor,
  type SyncContext,
  type SyncInfo,
  type SyncState,
} from "../../src/core/sync-planner";

// The catalog's state: last final 2026-10, so the Series Values window is 2025-10..2026-10
// and History (real shape) ends 2025-09.
const NOW = "2026-11-04";
const LAST = "2026-10-05";
const info: SyncInfo = { updatedAt: NOW, lastAvailableFinal: "2026-10", seriesHistChanged: false };

function state(covered: CoveredRange[], options: Partial<SyncState> = {}): SyncState {
  const lastFinal = covered[covered.length - 1]?.to ?? null;
  return { lastFinal, catalogUpdatedAt: NOW, covered, valuesAsOf: NOW, historyAsOf: NOW, ...options };
}

const full = state([{ from: null, to: "2026-10" }]);
const windowOnly = state([{ from: "2025-10", to: "2026-10" }], { historyAsOf: null });
const historyOnly = state([{ from: null, to: "2025-09" }], { valuesAsOf: null });
const lastRelease = state([{ from: null, to: "2026-09" }], {
  catalogUpdatedAt: LAST,
  valuesAsOf: LAST,
  historyAsOf: LAST,
});
const lastReleaseWindow = state([{ from: "2025-09", to: "2026-09" }], {
  catalogUpdatedAt: LAST,
  valuesAsOf: LAST,
  historyAsOf: null,
});
const behind14 = state([{ from: null, to: "2025-08" }], {
  catalogUpdatedAt: "2025-09-04",
  valuesAsOf: "2025-09-04",
  historyAsOf: "2025-09-04",
});
const behind13 = state([{ from: null, to: "2025-09" }], {
  catalogUpdatedAt: "2025-10-03",
  valuesAsOf: "2025-10-03",
  historyAsOf: "2025-10-03",
});
const revisedSince = state([{ from: null, to: "2026-10" }], {
  catalogUpdatedAt: LAST,
  valuesAsOf: LAST,
  historyAsOf: LAST,
});

const RECENT: SeriesNeed = { from: "2026-01", to: null };
const OLD: SeriesNeed = { from: "2010-01", to: "2010-12" };
const MONTH_IN_WINDOW: SeriesNeed = { from: "2025-11", to: "2025-11" };

const real: SyncContext = { historyAvailable: true, historyReachesLatest: false };
const letter: SyncContext = { historyAvailable: true, historyReachesLatest: true };
const noHistory: SyncContext = { historyAvailable: false, historyReachesLatest: false };

describe("planSync buys by need", () => {
  test.each<[string, SyncState | undefined, SeriesNeed, Partial<SyncInfo>, SyncContext, string, string]>([
    // New keys: only the parts the cells read.
    ["new key, latest value", undefined, LATEST_ONLY, {}, real, "values", "new"],
    ["new key, recent table", undefined, RECENT, {}, real, "values", "new"],
    ["new key, one month in the window", undefined, MONTH_IN_WINDOW, {}, real, "values", "new"],
    ["new key, whole table", undefined, WHOLE_SERIES, {}, real, "history+values", "new"],
    ["new key, old months only", undefined, OLD, {}, real, "history", "new"],
    [
      "new key, whole table, History reaches the latest month",
      undefined,
      WHOLE_SERIES,
      {},
      letter,
      "history",
      "new",
    ],
    ["new key, whole table, no History in the plan", undefined, WHOLE_SERIES, {}, noHistory, "values", "new"],
    [
      "new key, series without finals yet",
      undefined,
      WHOLE_SERIES,
      { lastAvailableFinal: null },
      real,
      "values",
      "new",
    ],
    // What is cached is never bought again.
    ["complete entry, whole table", full, WHOLE_SERIES, {}, real, "none", "fresh"],
    ["complete entry, old months", full, OLD, {}, real, "none", "fresh"],
    ["window cached, latest value", windowOnly, LATEST_ONLY, {}, real, "none", "fresh"],
    ["window cached, recent table", windowOnly, RECENT, {}, real, "none", "fresh"],
    ["window cached, a cell adds old months", windowOnly, OLD, {}, real, "history", "older_months"],
    [
      "window cached, a cell adds the whole table",
      windowOnly,
      WHOLE_SERIES,
      {},
      real,
      "history",
      "older_months",
    ],
    ["History cached, old months", historyOnly, OLD, {}, real, "none", "fresh"],
    ["History cached, the window never arrived", historyOnly, LATEST_ONLY, {}, real, "values", "incomplete"],
    [
      "History cached, whole table lacks the window",
      historyOnly,
      WHOLE_SERIES,
      {},
      real,
      "values",
      "incomplete",
    ],
    // A new release.
    ["one new month, latest value", lastRelease, LATEST_ONLY, {}, real, "values", "new_months"],
    ["one new month, whole table", lastRelease, WHOLE_SERIES, {}, real, "values", "new_months"],
    ["one new month, old months still held", lastRelease, OLD, {}, real, "none", "fresh"],
    [
      "window of last release, whole table",
      lastReleaseWindow,
      WHOLE_SERIES,
      {},
      real,
      "history+values",
      "older_months",
    ],
    [
      "13 months behind: Series Values closes the gap",
      behind13,
      WHOLE_SERIES,
      {},
      real,
      "values",
      "new_months",
    ],
    [
      "14 months behind: a gap before the window",
      behind14,
      WHOLE_SERIES,
      {},
      real,
      "history+values",
      "large_gap",
    ],
    ["14 months behind, latest value only", behind14, LATEST_ONLY, {}, real, "values", "new_months"],
    [
      "same months, newer updated_at, latest value",
      { ...full, valuesAsOf: LAST, catalogUpdatedAt: LAST },
      LATEST_ONLY,
      {},
      real,
      "values",
      "updated",
    ],
    [
      "same months, newer updated_at, old months",
      { ...full, valuesAsOf: LAST, catalogUpdatedAt: LAST },
      OLD,
      {},
      real,
      "none",
      "fresh",
    ],
    // A month before today's window that an earlier release's window brought.
    [
      "earlier window holds the month, new month",
      lastReleaseWindow,
      { from: "2025-09", to: null },
      {},
      real,
      "values",
      "new_months",
    ],
    [
      "earlier window holds the month, history revised",
      lastReleaseWindow,
      { from: "2025-09", to: null },
      { seriesHistChanged: true },
      real,
      "history+values",
      "revision",
    ],
    // Revisions: every part a cell reads comes again.
    [
      "revision, whole table",
      revisedSince,
      WHOLE_SERIES,
      { seriesHistChanged: true },
      real,
      "history+values",
      "revision",
    ],
    [
      "revision, latest value",
      revisedSince,
      LATEST_ONLY,
      { seriesHistChanged: true },
      real,
      "values",
      "revision",
    ],
    ["revision, old months", revisedSince, OLD, { seriesHistChanged: true }, real, "history", "revision"],
    ["revision already synced", full, WHOLE_SERIES, { seriesHistChanged: true }, real, "none", "fresh"],
    // A revision seen while History was not bought stays due once the next release clears the flag.
    [
      "a revision recorded, History older, the flag cleared: whole table",
      { ...full, historyAsOf: LAST, historyRevisedAt: NOW },
      WHOLE_SERIES,
      {},
      real,
      "history",
      "revision",
    ],
    [
      "a revision recorded, History older, the flag cleared: latest value",
      { ...full, historyAsOf: LAST, historyRevisedAt: NOW },
      LATEST_ONLY,
      {},
      real,
      "none",
      "fresh",
    ],
    [
      "a revision recorded, History bought since",
      { ...full, historyAsOf: NOW, historyRevisedAt: LAST },
      WHOLE_SERIES,
      {},
      real,
      "none",
      "fresh",
    ],
    [
      "revision without History in the plan",
      revisedSince,
      WHOLE_SERIES,
      { seriesHistChanged: true },
      noHistory,
      "values",
      "revision",
    ],
    [
      "an entry ahead of the catalog is fresh",
      state([{ from: null, to: "2026-11" }]),
      WHOLE_SERIES,
      {},
      real,
      "none",
      "fresh",
    ],
    [
      "no last final in the catalog, window cached",
      windowOnly,
      WHOLE_SERIES,
      { lastAvailableFinal: null },
      real,
      "none",
      "fresh",
    ],
  ])("%s", (_case, entry, need, infoPatch, context, action, cause) => {
    const decision = planSync(entry, { ...info, ...infoPatch }, need, context);
    expect(decision.action).toBe(action);
    expect(decision.cause).toBe(cause);
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  test("the reason says when the plan has no History", () => {
    expect(planSync(undefined, info, WHOLE_SERIES, noHistory).reason).toMatch(/plan has no History/);
  });

  test("the reason names the first month of the window for older months", () => {
    expect(planSync(windowOnly, info, OLD, real).reason).toBe("months before 2025-10 not cached yet");
  });
});

test.each([
  ["none", 0],
  ["values", 1],
  ["history", 1],
  ["history+values", 2],
] as const)("requestsFor(%s) = %d", (action, expected) => {
  expect(requestsFor(action)).toBe(expected);
});

test.each([
  ["2026-10", "2026-10", true],
  ["2026-11", "2026-10", true],
  ["2026-08", "2026-10", false],
  [null, "2026-10", false],
  ["2026-08", null, true],
])("reaches(%s, %s) = %s", (lastFinal, lastAvailableFinal, expected) => {
  expect(reaches(lastFinal, lastAvailableFinal)).toBe(expected);
});
