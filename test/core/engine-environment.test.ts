// The environment travels with every request: a switch between queueing a live key and
// its batch leaving must never let sandbox values reach the live key's cell or cache.
import type { Engine } from "../../src/core/engine-api";
import { QUIET_TIME } from "./http/fake-fetch";
import { LIVE_VALUE, fakePcd, signedInEngine, type FakePcd } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";

/** Series Values and History addresses asked for (not Series Info, Data Limits or tokens). */
function dataCalls(pcd: FakePcd): string[] {
  return pcd.urls.filter((url) => /\/export\/series(_hist)?\//.test(url));
}

async function start(): Promise<{ engine: Engine; pcd: FakePcd }> {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  return { engine: await signedInEngine(pcd), pcd };
}

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test("a start-up environment is the one requests carry, until the user switches", async () => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  const engine = await signedInEngine(pcd, { environment: "sandbox" });
  const keyOf = async (): Promise<string> => {
    const resolving = engine.resolve(CODE, null, null);
    await jest.advanceTimersByTimeAsync(1_000);
    return (await resolving).key;
  };
  expect(await keyOf()).toMatch(/^sandbox\|/);
  await engine.updateSettings({ environment: "live" });
  expect(await keyOf()).toMatch(/^live\|/);
});

test("a live key queued before a switch to sandbox gets live data, cached under live only", async () => {
  const { engine, pcd } = await start();
  const resolving = engine.resolve(CODE, null, null);
  await jest.advanceTimersByTimeAsync(1_000);
  const request = await resolving;
  expect(request.key.startsWith("live|")).toBe(true);
  await jest.advanceTimersByTimeAsync(0);
  pcd.urls.length = 0;

  const pending = engine.getSeries(request);
  // The key is queued (the batch window has not closed yet) when the environment switches.
  await jest.advanceTimersByTimeAsync(0);
  expect(pcd.urls).toEqual([]);
  await engine.updateSettings({ environment: "sandbox" });
  await jest.advanceTimersByTimeAsync(1_000);
  const data = await pending;

  // Every part of the series was asked at the live address.
  expect(dataCalls(pcd).length).toBeGreaterThan(0);
  expect(dataCalls(pcd).filter((url) => url.includes("/sandbox/"))).toEqual([]);
  expect(data.finals.toPoints().map((point) => point.value)).toEqual(Array(13).fill(LIVE_VALUE));

  // Back in live, the cell is served from the cache with the live values, without a call.
  await engine.updateSettings({ environment: "live" });
  pcd.urls.length = 0;
  expect(
    engine
      .peek(request.key)
      ?.finals.toPoints()
      .every((point) => point.value === LIVE_VALUE),
  ).toBe(true);
  const again = await engine.getSeries(request);
  expect(again.finals.toPoints().every((point) => point.value === LIVE_VALUE)).toBe(true);
  expect(dataCalls(pcd)).toEqual([]);
});
