// The Usage tab asks for the cost preview on every engine change event (useMetaVersion).
// During release-day downtime a Series Info answer (503 with Retry-After) is itself a change
// event (the announced end moves with each answer): a preview that re-read the catalog on
// each ask called Series Info several times a second until the tab closed. These tests play
// the tab's part over a simulated hour and count the calls the service sees.
import { CATALOG_MIN_CALL_INTERVAL_MS } from "../../src/core/catalog";
import { LIMITS_RETRY_AFTER_FAILURE_MS } from "../../src/core/data-limits-keeper";
import type { Engine } from "../../src/core/engine-api";
import { failureBackoff } from "../../src/core/failure-backoff";
import { DEFAULT_RETRY_POLICY } from "../../src/core/http/retry-policy";
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

function dataLimitsCalls(pcd: FakePcd): number {
  return pcd.urls.filter((url) => url.endsWith("/data_limits")).length;
}

/** Advances fake time by `ms` a second at a time, stopping early once the count runs away. */
async function runFor(ms: number, count: () => number): Promise<void> {
  for (let elapsed = 0; elapsed < ms && count() < RUNAWAY; elapsed += 1_000) {
    await jest.advanceTimersByTimeAsync(1_000);
  }
}

/**
 * The Usage tab: the cost preview and the usage bars now and after every change event, as
 * useMetaVersion does; opening it is the user asking for the preview (the catalogs are read).
 */
function usageTab(engine: Engine): () => void {
  let current = true;
  let opening = true;
  const ask = (): void => {
    if (!current) return;
    void engine.planRefresh({ recheck: opening }).catch(() => undefined);
    opening = false;
    void engine.limitsReport().catch(() => undefined);
  };
  const stop = engine.onMetaChange(ask);
  // The tab's clock ticks too (its cost is worked out again every few minutes): every minute here.
  const tick = setInterval(ask, 60_000);
  ask();
  return () => {
    current = false;
    stop();
    clearInterval(tick);
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

test("release-day downtime: an hour with the Usage tab open makes one Series Info call, the probe of its opening", async () => {
  const { engine, pcd } = await workbookWithCachedData();
  jest.setSystemTime(IN_DOWNTIME);
  pcd.mode = "maintenance";
  const before = seriesInfoCalls(pcd);
  const close = usageTab(engine);
  await runFor(HOUR, () => seriesInfoCalls(pcd) - before);
  close();
  // The workbook uses one product: the user opening the tab probes it once (one call with
  // the client's own tries); nothing after, however many change events follow.
  expect(seriesInfoCalls(pcd) - before).toBeGreaterThan(0);
  expect(seriesInfoCalls(pcd) - before).toBeLessThanOrEqual(1 + DEFAULT_RETRY_POLICY.maxRetries);
});

/**
 * Reads of a failing service within an hour, one every `first` until the first failure, then
 * after waits that double (failure-backoff.ts); each read is one call with the HTTP client's
 * own quick retries.
 */
function readsWithinAnHour(first: number): number {
  let at = first;
  let reads = 0;
  while (at <= HOUR) {
    reads += 1;
    at += failureBackoff(first, reads);
  }
  return reads * (1 + DEFAULT_RETRY_POLICY.maxRetries);
}

test("an outage: an hour with the Usage tab open reads Series Info and Data Limits less and less often", async () => {
  const { engine, pcd } = await workbookWithCachedData();
  pcd.mode = "down";
  const before = { info: seriesInfoCalls(pcd), limits: dataLimitsCalls(pcd) };
  const close = usageTab(engine);
  await runFor(HOUR, () => seriesInfoCalls(pcd) - before.info + dataLimitsCalls(pcd) - before.limits);
  close();
  // One product in the workbook; the bars read all three products' limits.
  expect(seriesInfoCalls(pcd) - before.info).toBeLessThanOrEqual(
    readsWithinAnHour(CATALOG_MIN_CALL_INTERVAL_MS),
  );
  // Besides, the engine's outage probe (outage-probe.ts) reads Data Limits 1, 5 and 15
  // minutes into the outage, then every 15 minutes: at most 6 times in the hour.
  const outageProbes = 6;
  expect(dataLimitsCalls(pcd) - before.limits).toBeLessThanOrEqual(
    3 * readsWithinAnHour(LIMITS_RETRY_AFTER_FAILURE_MS) + outageProbes,
  );
});
