import {
  planSync,
  reaches,
  requestsFor,
  type SyncContext,
  type SyncState,
} from "../../src/core/sync-planner";
import type { SyncInfo } from "../../src/core/sync-planner";

const info: SyncInfo = { updatedAt: "2026-11-04", lastAvailableFinal: "2026-10", seriesHistChanged: false };
const synced: SyncState = { lastFinal: "2026-10", catalogUpdatedAt: "2026-11-04" };
const full: SyncContext = { historyAvailable: true, historyEndsEarly: false };
const noHistory: SyncContext = { historyAvailable: false, historyEndsEarly: false };
const endsEarly: SyncContext = { historyAvailable: true, historyEndsEarly: true };

describe("planSync", () => {
  test.each<[string, SyncState | undefined, Partial<SyncInfo>, SyncContext, string, string]>([
    ["fresh entry", synced, {}, full, "none", "fresh"],
    [
      "fresh even when the catalog has no last final",
      synced,
      { lastAvailableFinal: null },
      full,
      "none",
      "fresh",
    ],
    ["new key", undefined, {}, full, "history", "new"],
    ["new key once History is known to end early", undefined, {}, endsEarly, "history+values", "new"],
    ["new key without History in the plan", undefined, {}, noHistory, "values", "new"],
    [
      "an entry without finals counts as new",
      { lastFinal: null, catalogUpdatedAt: null },
      {},
      full,
      "history",
      "new",
    ],
    [
      "one new month",
      { ...synced, lastFinal: "2026-09", catalogUpdatedAt: "2026-10-05" },
      {},
      full,
      "values",
      "new_months",
    ],
    [
      "a gap of 12 months still fits Series Values",
      { ...synced, lastFinal: "2025-10" },
      {},
      full,
      "values",
      "new_months",
    ],
    [
      "a gap of 13 months needs History",
      { ...synced, lastFinal: "2025-09" },
      {},
      full,
      "history",
      "large_gap",
    ],
    [
      "a large gap without History falls back to Values",
      { ...synced, lastFinal: "2024-01" },
      {},
      noHistory,
      "values",
      "large_gap",
    ],
    [
      "same months, newer updated_at (new forecasts)",
      { ...synced, catalogUpdatedAt: "2026-10-05" },
      {},
      full,
      "values",
      "updated",
    ],
    [
      "revised history with a newer updated_at",
      { ...synced, catalogUpdatedAt: "2026-10-05" },
      { seriesHistChanged: true },
      full,
      "history",
      "revision",
    ],
    [
      "a revision already synced is not fetched again",
      synced,
      { seriesHistChanged: true },
      full,
      "none",
      "fresh",
    ],
    [
      "a revision without History in the plan",
      { ...synced, catalogUpdatedAt: "2026-10-05" },
      { seriesHistChanged: true },
      noHistory,
      "values",
      "revision",
    ],
    [
      "a History merge whose Values call failed",
      { ...synced, pendingValues: true },
      {},
      full,
      "values",
      "incomplete",
    ],
    [
      "an entry ahead of the catalog is fresh",
      { ...synced, lastFinal: "2026-11" },
      {},
      full,
      "none",
      "fresh",
    ],
  ])("%s", (_case, entry, infoPatch, context, action, cause) => {
    const decision = planSync(entry, { ...info, ...infoPatch }, context);
    expect(decision.action).toBe(action);
    expect(decision.cause).toBe(cause);
    expect(decision.reason.length).toBeGreaterThan(0);
  });

  test("the reason says when the plan has no History", () => {
    expect(planSync(undefined, info, noHistory).reason).toMatch(/plan has no History/);
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
