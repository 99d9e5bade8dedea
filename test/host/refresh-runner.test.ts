import { ENGINE_DEFAULTS } from "../../src/core/defaults";
import type { Engine, RefreshSummary } from "../../src/core/engine-api";
import { RefreshRunner } from "../../src/host/refresh-runner";

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
  const runner = new RefreshRunner(() => ({ refreshAll }) as unknown as Engine);
  await runner.run(request);
  expect(refreshAll).toHaveBeenCalledWith(expect.any(Function), options);
  expect(runner.current()).toEqual({ status: "done", summary: SUMMARY });
});

test("a refused refresh becomes the runner's failed state with the engine's words", async () => {
  const runner = new RefreshRunner(
    () =>
      ({
        refreshAll: async () => Promise.reject(new Error("Refresh all did not run: …")),
      }) as unknown as Engine,
  );
  expect(await runner.run({ unreviewed: true })).toBeNull();
  expect(runner.current()).toEqual({ status: "failed", message: "Refresh all did not run: …" });
});
