// The Usage tab asks for the cost preview on every engine change event (useMetaVersion).
// During release-day downtime a Series Info answer (503 with Retry-After) is itself a change
// event (the announced end moves with each answer): a preview that re-read the catalog on
// each ask called Series Info several times a second until the tab closed. These tests play
// the tab's part over a simulated hour and count the calls the service sees.
import { CATALOG_MIN_CALL_INTERVAL_MS } from "../../src/core/catalog";
import type { Engine } from "../../src/core/engine-api";
import { fakePcd, settle, signedInEngine, type FakePcd } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";
/** 05:00 US Central Time on release day (the 3rd business day of December 2026): before the downtime. */
const BEFORE_DOWNTIME = Date.parse("2026-12-03T11:00:00Z");
/** 07:00 US Central Time on release day: in the downtime, the release not out yet. */
const IN_DOWNTIME = Date.parse("2026-12-03T13:00:00Z");
const HOUR = 3_600_000;
/** More calls than any bound allows: a loop is stopped there so the test fails with the count. */
const RUNAWAY = 200;

function seriesInfoCalls(pcd: FakePcd): number {
  return pcd.urls.filter((url) => /\/v1\/export\/series$/.test(url)).length;
}

/** Advances fake time by `ms` a second at a time, stopping early once the count runs away. */
async function runFor(ms: number, count: () => number): Promise<void> {
  for (let elapsed = 0; elapsed < ms && count() < RUNAWAY; elapsed += 1_000) {
    await jest.advanceTimersByTimeAsync(1_000);
  }
}

/** The Usage tab: a cost preview now and after every change event, as useMetaVersion does. */
function usageTab(engine: Engine): () => void {
  let current = true;
  const ask = (): void => {
    if (current) void engine.planRefresh().catch(() => undefined);
  };
  const stop = engine.onMetaChange(ask);
  ask();
  return () => {
    current = false;
    stop();
  };
}

async function workbookWithCachedData(): Promise<{ engine: Engine; pcd: FakePcd }> {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-10", updatedAt: "2026-11-04" },
  ]);
  const engine = await signedInEngine(pcd);
  const request = await settle(engine.resolve(CODE, null, null));
  if (request.status !== "fulfilled") throw new Error("resolve failed");
  const data = await settle(engine.getSeries(request.value));
  expect(data.status).toBe("fulfilled");
  return { engine, pcd };
}

beforeEach(() => {
  jest.useFakeTimers({ now: BEFORE_DOWNTIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test("release-day downtime: an hour with the Usage tab open makes no more Series Info calls than its probes", async () => {
  const { engine, pcd } = await workbookWithCachedData();
  jest.setSystemTime(IN_DOWNTIME);
  pcd.mode = "maintenance";
  const before = seriesInfoCalls(pcd);
  const close = usageTab(engine);
  await runFor(HOUR, () => seriesInfoCalls(pcd) - before);
  close();
  // The workbook uses one product: at most its release-day probe, at most once per call interval.
  expect(seriesInfoCalls(pcd) - before).toBeLessThanOrEqual(HOUR / CATALOG_MIN_CALL_INTERVAL_MS);
});
