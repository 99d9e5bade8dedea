import { ENGINE_DEFAULTS } from "../../src/core/defaults";
import type { Engine, RefreshSummary, ServiceState } from "../../src/core/engine-api";
import { RefreshRunner } from "../../src/host/refresh-runner";

const ENDED_AT = Date.parse("2026-12-03T13:00:00Z");

const SUMMARY: RefreshSummary = {
  updated: 0,
  revised: 0,
  unchanged: 0,
  failed: 0,
  requestsUsed: 0,
  failures: [],
  changes: [],
  startedAt: 0,
  finishedAt: 0,
};

test.each<[string, { unreviewed?: boolean } | undefined, object]>([
  ["the pane's reviewed refresh has no limit", undefined, {}],
  [
    "a refresh nobody reviewed keeps within the stated share",
    { unreviewed: true },
    { maxShareOfRemaining: ENGINE_DEFAULTS.unreviewedRefreshMaxShare },
  ],
])("%s", async (_name, request, options) => {
  const refreshAll = jest.fn(async () => SUMMARY);
  const runner = new RefreshRunner(
    () => ({ refreshAll }) as unknown as Engine,
    () => ENDED_AT,
  );
  await runner.run(request);
  expect(refreshAll).toHaveBeenCalledWith(expect.any(Function), options);
  expect(runner.current()).toEqual({
    status: "done",
    summary: SUMMARY,
    endedAt: ENDED_AT,
    conditionAtEnd: undefined,
  });
});

test("a refused refresh becomes the runner's failed state with the engine's words", async () => {
  const runner = new RefreshRunner(
    () =>
      ({
        refreshAll: async () => Promise.reject(new Error("Refresh all did not run: …")),
      }) as unknown as Engine,
    () => ENDED_AT,
  );
  expect(await runner.run({ unreviewed: true })).toBeNull();
  expect(runner.current()).toEqual({
    status: "failed",
    message: "Refresh all did not run: …",
    endedAt: ENDED_AT,
    conditionAtEnd: undefined,
  });
});

const CLOSED_FOR_RELEASE: ServiceState = {
  available: false,
  reason: "release",
  until: Date.parse("2026-12-04T04:00:00Z"),
  nextRelease: Date.parse("2027-01-06T12:00:00Z"),
  nextMaintenance: Date.parse("2026-12-15T12:00:00Z"),
};

// The outcome keeps the service's condition when the refresh ended: a view mounted later
// (the Usage tab opened again after the release is out) judges the failure by it, not by
// the condition when it mounted, which showed a release-day failure after the release.
const OPEN: ServiceState = { ...CLOSED_FOR_RELEASE, available: true, reason: null, until: null };

test.each<[string, boolean, ServiceState, boolean, string]>([
  [
    "a refresh refused on release day keeps the release as its condition",
    false,
    CLOSED_FOR_RELEASE,
    true,
    "release",
  ],
  ["a refresh that ran keeps the condition it ended in", true, CLOSED_FOR_RELEASE, true, "release"],
  // Signing in then changes the condition: "Not signed in" is no longer shown as the last failure.
  ["a refresh refused while signed out keeps that as its condition", false, OPEN, false, "signed_out"],
])("%s", async (_name, succeeds, state, signedIn, condition) => {
  const engine = {
    refreshAll: async () =>
      succeeds ? SUMMARY : Promise.reject(new Error("The service is down for the monthly data release …")),
    serviceState: () => state,
    authStatus: () => ({ signedIn }),
  } as unknown as Engine;
  const runner = new RefreshRunner(
    () => engine,
    () => ENDED_AT,
  );
  await runner.run();
  expect(runner.current()).toMatchObject({ endedAt: ENDED_AT, conditionAtEnd: condition });
});
