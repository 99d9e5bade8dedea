// The persistent cache is shared by every workbook on the machine: an engine reads the
// cached series of its own workbook's keys when it starts, and any other cached series when
// a cell or a refresh first asks for it, without a call to the service.
import { DATA_KEY_PREFIX } from "../../src/core/cache";
import type { KeyValueStorage } from "../../src/core/environment";
import { requestKeyOf, toStoredRequestKey } from "../../src/core/request-key";
import { LATEST_ONLY, WHOLE_SERIES } from "../../src/core/series-need";
import { MemoryStorage } from "../../src/core/storage";
import { WORKBOOK_KEYS_STORAGE_KEY } from "../../src/core/workbook-keys";
import { createHarness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODES = ["1-1-1", "2-2-2", "3-3-3"];

/** Storage that records which cached series were read. */
function recordingStorage(): { storage: KeyValueStorage; seriesRead: string[] } {
  const inner = new MemoryStorage();
  const seriesRead: string[] = [];
  return {
    storage: {
      persistent: true,
      get: <T>(key: string) => {
        if (key.startsWith(DATA_KEY_PREFIX)) seriesRead.push(key.slice(DATA_KEY_PREFIX.length));
        return inner.get<T>(key);
      },
      set: (key, value) => inner.set(key, value),
      delete: (key) => inner.delete(key),
      keys: () => inner.keys(),
    },
    seriesRead,
  };
}

const idOf = (code: string): string =>
  requestKeyOf({ environment: "live", product: "energy_price", code, currencyId: null, unitId: null }).id;

/** Three series cached by an earlier workbook; this workbook's list holds only 1-1-1. */
async function cacheOfThreeWorkbookOfOne(): Promise<{
  storage: KeyValueStorage;
  seriesRead: string[];
  service: FakeService;
}> {
  const { storage, seriesRead } = recordingStorage();
  const service = new FakeService();
  service.addSeries(...CODES.map((code) => seriesInfo({ code })));
  service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  const earlier = createHarness({ service, storage });
  for (const code of CODES) await earlier.engine.getSeries(await earlier.engine.resolve(code, null, null));
  await earlier.engine.idle();
  const own = requestKeyOf({
    environment: "live",
    product: "energy_price",
    code: "1-1-1",
    currencyId: null,
    unitId: null,
  });
  await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [{ ...toStoredRequestKey(own), need: WHOLE_SERIES }]);
  seriesRead.length = 0;
  return { storage, seriesRead, service };
}

describe("cached series are read per key", () => {
  test("start-up reads the workbook's own series only", async () => {
    const { storage, seriesRead, service } = await cacheOfThreeWorkbookOfOne();
    const h = createHarness({ service, storage });
    await h.engine.ready();
    expect(seriesRead).toEqual([idOf("1-1-1")]);
    expect(h.engine.peek(idOf("1-1-1"))?.finals.length).toBeGreaterThan(0);
    expect(h.engine.peek(idOf("2-2-2"))).toBeUndefined();
    expect((await h.engine.cacheInfo()).entries).toBe(3);
    expect(h.engine.peek(idOf("2-2-2"))).toBeUndefined();
  });

  test("a cell asking for another cached series gets it from the cache: one read, no call", async () => {
    const { storage, seriesRead, service } = await cacheOfThreeWorkbookOfOne();
    const h = createHarness({ service, storage });
    await h.engine.ready();
    const calls = service.dataCalls().length;
    const request = await h.engine.resolve("2-2-2", null, null);
    // The fast path cannot read storage: it hands over to the asynchronous path.
    expect(h.engine.serveNow("2-2-2", null, null, LATEST_ONLY)).toBeUndefined();
    const [first, second] = await Promise.all([h.engine.getSeries(request), h.engine.getSeries(request)]);
    expect(first.finals.length).toBeGreaterThan(0);
    expect(second).toBe(first);
    expect(service.dataCalls()).toHaveLength(calls);
    expect(seriesRead).toEqual([idOf("1-1-1"), idOf("2-2-2")]);
    expect(h.engine.serveNow("2-2-2", null, null, LATEST_ONLY)).toBeDefined();
  });

  test("refresh-all reads a workbook key's series that no cell has asked for yet before planning it", async () => {
    const { storage, service } = await cacheOfThreeWorkbookOfOne();
    const h = createHarness({ service, storage });
    await h.engine.ready();
    h.engine.retainKey(idOf("3-3-3"));
    const plan = await h.engine.planRefresh();
    expect(plan.items.map((item) => [item.code, item.action])).toEqual([
      ["1-1-1", "none"],
      ["3-3-3", "none"],
    ]);
    expect(plan.totalRequests).toBe(0);
  });

  test("clearing the cache deletes the series not read yet too", async () => {
    const { storage, service } = await cacheOfThreeWorkbookOfOne();
    const h = createHarness({ service, storage });
    await h.engine.ready();
    await h.engine.clearCache();
    expect((await storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX))).toEqual([]);
    expect((await h.engine.cacheInfo()).entries).toBe(0);
  });
});
