// Usage counts what the service charged: a refresh whose calls got no answer reports no
// requests used (and says how many are unconfirmed), the usage bars keep them apart, and
// the next Data Limits read (free) settles them.
import type { Engine, LimitsRow } from "../../src/core/engine-api";
import { QUIET_TIME } from "./http/fake-fetch";
import { fakePcd, settle, signedInEngine, type FakePcd } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";

async function start(): Promise<{ engine: Engine; pcd: FakePcd }> {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  return { engine: await signedInEngine(pcd), pcd };
}

async function germany(engine: Engine): Promise<LimitsRow | undefined> {
  const result = await settle(engine.limitsReport(), 1_000);
  if (result.status === "rejected") throw result.reason;
  return result.value.rows.find((row) => row.dataset === "Germany");
}

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test("a refresh whose data calls get no answer charges nothing; Data Limits settles the unconfirmed", async () => {
  const { engine, pcd } = await start();
  const request = await settle(engine.resolve(CODE, null, null), 1_000);
  if (request.status === "rejected") throw request.reason;
  expect((await settle(engine.getSeries(request.value))).status).toBe("fulfilled");
  // What the first fetch cost (its parts), as the service counted it.
  const firstCost = pcd.charged;
  expect(firstCost).toBeGreaterThan(0);
  expect(await germany(engine)).toEqual({
    product: "energy_price",
    dataset: "Germany",
    remaining: 500 - firstCost,
    total: 500,
  });

  // A release: the catalog answers, the data calls do not (the service stops mid-refresh).
  pcd.series[0] = { ...pcd.series[0]!, lastAvailableFinal: "2026-10", updatedAt: "2026-11-04" };
  pcd.onRequest = (url) => {
    if (/\/export\/series(_hist)?\//.test(url)) throw new TypeError("fetch failed");
  };
  const refreshed = await settle(engine.refreshAll());
  if (refreshed.status === "rejected") throw refreshed.reason;
  expect(refreshed.value).toMatchObject({ failed: 1, requestsUsed: 0 });
  expect(refreshed.value.requestsUnconfirmed).toBeGreaterThan(0);
  expect(pcd.charged).toBe(firstCost); // the refresh's calls never reached the service
  pcd.onRequest = undefined;

  // The refresh read Data Limits again when it ended (at no data request): that settled
  // them, and says nothing more was charged; the usage shows it without another call.
  const urlsBefore = pcd.urls.length;
  expect(await germany(engine)).toEqual({
    product: "energy_price",
    dataset: "Germany",
    remaining: 500 - firstCost,
    total: 500,
  });
  const energyLimitsCalls = pcd.urls
    .slice(urlsBefore)
    .filter((url) => url.includes("/energy_price/") && url.endsWith("/data_limits"));
  expect(energyLimitsCalls).toEqual([]);
});

test("calls in flight show as unconfirmed, not as used", async () => {
  const { engine, pcd } = await start();
  const request = await settle(engine.resolve(CODE, null, null), 1_000);
  if (request.status === "rejected") throw request.reason;
  await germany(engine);
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  // Every data call of the fetch waits until the test lets the service answer.
  pcd.onRequest = (url) => (/\/export\/series(_hist)?\//.test(url) ? held : undefined);
  const pending = engine.getSeries(request.value);
  await jest.advanceTimersByTimeAsync(1_000);
  const sent = pcd.urls.filter((url) => /\/export\/series(_hist)?\//.test(url)).length;
  expect(sent).toBeGreaterThan(0);
  expect(await germany(engine)).toMatchObject({ remaining: 500, unconfirmed: sent });
  answer();
  expect((await settle(pending)).status).toBe("fulfilled");
  expect(await germany(engine)).toEqual({
    product: "energy_price",
    dataset: "Germany",
    remaining: 500 - pcd.charged,
    total: 500,
  });
});
