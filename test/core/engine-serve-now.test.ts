// Engine.serveNow: the synchronous answer of the cell fast path, and when it declines.
import { CATALOG_MAX_AGE_MS } from "../../src/core/catalog";
import { PcdError } from "../../src/core/errors";
import type { KeyValueStorage } from "../../src/core/environment";
import { MemoryStorage } from "../../src/core/storage";
import { toStoredRequestKey } from "../../src/core/request-key";
import { LATEST_ONLY, WHOLE_SERIES } from "../../src/core/series-need";
import { WORKBOOK_KEYS_STORAGE_KEY } from "../../src/core/workbook-keys";
import { createHarness, rereadCatalog } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODE = "68520-8-1";

function harness(storage?: KeyValueStorage) {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: CODE }), seriesInfo({ code: "68520-8-2" }));
  service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  return createHarness({ service, storage });
}

describe("serveNow", () => {
  test("answers a cached, current series with the very object getSeries gives, and makes no call", async () => {
    const h = harness();
    const request = await h.engine.resolve(CODE, null, null);
    const slow = await h.engine.getSeries(request, WHOLE_SERIES);
    const calls = h.service.dataCalls().length;
    expect(h.engine.serveNow?.(CODE, null, null, WHOLE_SERIES)).toBe(slow);
    expect(h.engine.serveNow?.(` ${CODE} `, null, null, LATEST_ONLY)).toBe(slow);
    expect(h.engine.serveNow?.(CODE, null, null, { from: "2010-01", to: "2010-12" })).toBe(slow);
    expect(h.service.dataCalls()).toHaveLength(calls);
  });

  test("declines before the engine has read its storage, answers from it after", async () => {
    const storage = new MemoryStorage();
    const first = harness(storage);
    await first.engine.getSeries(await first.engine.resolve(CODE, null, null), LATEST_ONLY);
    await first.engine.idle();
    const reopened = harness(storage);
    expect(reopened.engine.serveNow?.(CODE, null, null, LATEST_ONLY)).toBeUndefined();
    await reopened.engine.ready();
    expect(reopened.engine.serveNow?.(CODE, null, null, LATEST_ONLY)?.lastFinal).toBe("2026-10");
    expect(reopened.service.dataCalls()).toHaveLength(0);
  });

  test.each([
    ["a code not cached", "68520-8-2", null, LATEST_ONLY],
    ["a code that is not a PCD code", "not a code", null, LATEST_ONLY],
    ["a currency the series does not have", CODE, "XYZ", LATEST_ONLY],
    ["months the cache does not hold (History was not bought)", CODE, null, WHOLE_SERIES],
  ])("declines %s, without a call", async (_case, code, currency, need) => {
    const h = harness();
    await h.engine.getSeries(await h.engine.resolve(CODE, null, null), LATEST_ONLY);
    const calls = h.service.dataCalls().length;
    expect(h.engine.serveNow?.(code, currency, null, need)).toBeUndefined();
    expect(h.service.dataCalls()).toHaveLength(calls);
  });

  test("declines once a new release makes the cached months out of date", async () => {
    const h = harness();
    const request = await h.engine.resolve(CODE, null, null);
    await h.engine.getSeries(request, LATEST_ONLY);
    expect(h.engine.serveNow?.(CODE, null, null, LATEST_ONLY)).toBeDefined();
    h.service.updateSeries(CODE, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    expect(h.engine.serveNow?.(CODE, null, null, LATEST_ONLY)).toBeUndefined();
  });

  test("declines when the catalog record is old enough for lookup to refresh it", async () => {
    const h = harness();
    await h.engine.getSeries(await h.engine.resolve(CODE, null, null), LATEST_ONLY);
    h.clock.now += CATALOG_MAX_AGE_MS;
    expect(h.engine.serveNow?.(CODE, null, null, LATEST_ONLY)).toBeUndefined();
  });

  test("declines once a release is out that the catalog was read before; the cell then reads it again and buys once", async () => {
    const h = harness();
    const request = await h.engine.resolve(CODE, null, null);
    await h.engine.getSeries(request, LATEST_ONLY);
    // The release starts an hour later and is out (nothing says it is down): the catalog,
    // read an hour before it, is not a day old but says nothing of it.
    h.schedule.previousReleaseStart = h.schedule.releaseStart;
    h.schedule.releaseStart = h.clock.now + 3_600_000;
    h.clock.now += 2 * 3_600_000;
    h.service.updateSeries(CODE, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    h.service.updateSeries("68520-8-2", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    expect(h.engine.serveNow?.(CODE, null, null, LATEST_ONLY)).toBeUndefined();
    expect(h.engine.lookupNow?.(CODE)).toBeUndefined();
    expect((await h.engine.getSeries(await h.engine.resolve(CODE, null, null), LATEST_ONLY)).lastFinal).toBe(
      "2026-11",
    );
    // A key new to the workbook is bought against the new catalog: once, not again by the refresh.
    const fresh = await h.engine.getSeries(await h.engine.resolve("68520-8-2", null, null), LATEST_ONLY);
    expect(fresh.lastFinal).toBe("2026-11");
    const calls = h.service.dataCalls().length;
    expect((await h.engine.refreshAll()).requestsUsed).toBe(0);
    expect(h.service.dataCalls()).toHaveLength(calls);
    expect(h.engine.serveNow?.(CODE, null, null, LATEST_ONLY)?.lastFinal).toBe("2026-11");
  });

  test("once a release is out, a catalog that cannot be read again leaves the cached data shown as stale, not current", async () => {
    const h = harness();
    const request = await h.engine.resolve(CODE, null, null);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).staleBecause).toBeUndefined();
    h.schedule.previousReleaseStart = h.schedule.releaseStart;
    h.schedule.releaseStart = h.clock.now + 3_600_000;
    h.clock.now += 2 * 3_600_000;
    h.service.updateSeries(CODE, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    let failing = true;
    h.service.failWith((call) =>
      failing && call.operation === "series_info"
        ? new PcdError(
            "server",
            "The service is failing: it answered HTTP 502 (bad gateway) to Series Info.",
            {
              status: 502,
            },
          )
        : undefined,
    );
    const shown = await h.engine.getSeries(await h.engine.resolve(CODE, null, null), LATEST_ONLY);
    // Last month's value, said to be stale with the cause: never shown as the latest release.
    expect(shown.lastFinal).toBe("2026-10");
    expect(shown.staleBecause?.message).toMatch(
      /^The catalog of energy_price has not been read since the monthly release came out: The service is failing: it answered HTTP 502 \(bad gateway\) to Series Info\. The data shown is as of .* and may be last month's; PCD reads the catalog again\.$/,
    );
    expect(shown.staleBecause?.kind).toBe("server");
    expect(h.service.dataCalls()).toHaveLength(1);
    // The service answers again: the next look reads the catalog and buys the new month once.
    failing = false;
    h.clock.now += 60 * 60_000;
    const after = await h.engine.getSeries(await h.engine.resolve(CODE, null, null), LATEST_ONLY);
    expect(after.lastFinal).toBe("2026-11");
    expect(after.staleBecause).toBeUndefined();
    expect(h.service.dataCalls()).toHaveLength(2);
  });

  test("records the key and its need for refresh-all, as getSeries does", async () => {
    // The whole series is cached on the machine; this workbook's saved list asks for its latest value only.
    const storage = new MemoryStorage();
    const earlier = harness(storage);
    const request = await earlier.engine.resolve(CODE, null, null);
    await earlier.engine.getSeries(request, WHOLE_SERIES);
    await earlier.engine.idle();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [
      { ...toStoredRequestKey(request.requestKey), need: LATEST_ONLY },
    ]);
    const h = harness(storage);
    await h.engine.ready();
    expect(h.engine.serveNow?.(CODE, null, null, WHOLE_SERIES)).toBeDefined();
    await h.engine.idle();
    // The saved list (what refresh-all plans from) now asks for the whole series.
    expect(await storage.get(WORKBOOK_KEYS_STORAGE_KEY)).toEqual([
      { ...toStoredRequestKey(request.requestKey), need: WHOLE_SERIES },
    ]);
    expect(h.service.dataCalls()).toHaveLength(0);
  });

  test("lookupNow gives the record lookup gives, once loaded and while the record is current", async () => {
    const h = harness();
    expect(h.engine.lookupNow?.(CODE)).toBeUndefined();
    const slow = await h.engine.lookup(CODE);
    expect(h.engine.lookupNow?.(` ${CODE}`)).toBe(slow);
    expect(h.engine.lookupNow?.("99999-9-9")).toBeUndefined();
    h.clock.now += CATALOG_MAX_AGE_MS;
    expect(h.engine.lookupNow?.(CODE)).toBeUndefined();
  });
});
