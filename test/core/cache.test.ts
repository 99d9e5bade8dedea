import { DATA_KEY_PREFIX, DataCache, PACKED_FORMAT, toStored, type CacheEntry } from "../../src/core/cache";
import type { KeyValueStorage } from "../../src/core/environment";
import { MemoryStorage } from "../../src/core/storage";

function entry(key: string, value = 1): CacheEntry {
  return {
    key,
    finals: [{ month: "2026-10", value }],
    forecasts: [],
    currency: "EUR",
    unit: "MWh",
    updatedAt: "2026-11-04",
    lastFinal: "2026-10",
    fetchedAt: 1,
    catalogUpdatedAt: "2026-11-04",
    covered: [{ from: "2025-10", to: "2026-10" }],
    valuesAsOf: "2026-11-04",
    historyAsOf: null,
  };
}

describe("DataCache", () => {
  test("persists entries and reads them back after a restart", async () => {
    const storage = new MemoryStorage();
    const cache = new DataCache(storage);
    await cache.put(entry("live|energy_price|1-1-1|default|default"));
    await cache.put(entry("sandbox|energy_price|1-1-1|default|default", -1));
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("live|energy_price|1-1-1|default|default")?.finals[0]?.value).toBe(1);
    expect(reopened.get("sandbox|energy_price|1-1-1|default|default")?.finals[0]?.value).toBe(-1);
    expect(await storage.keys()).toContain(`${DATA_KEY_PREFIX}live|energy_price|1-1-1|default|default`);
  });

  test("entries are stored packed (flat month and value arrays); entries stored one object per month still load", async () => {
    const storage = new MemoryStorage();
    await new DataCache(storage).put(entry("packed", 2));
    expect(await storage.get(`${DATA_KEY_PREFIX}packed`)).toMatchObject({
      format: PACKED_FORMAT,
      finals: { months: [2026 * 12 + 9], values: [2] },
      forecasts: { months: [], values: [] },
      lastFinal: "2026-10",
    });
    await storage.set(`${DATA_KEY_PREFIX}legacy`, entry("legacy", 3));
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("packed")).toEqual(entry("packed", 2));
    expect(reopened.get("legacy")).toEqual(entry("legacy", 3));
  });

  test("skips a packed entry whose arrays do not match, and logs it", async () => {
    const storage = new MemoryStorage();
    await storage.set(`${DATA_KEY_PREFIX}broken`, {
      ...toStored(entry("broken")),
      finals: { months: [1, 2], values: [1] },
    });
    const logs: string[] = [];
    const cache = new DataCache(storage, (_level, text) => logs.push(text));
    await cache.load();
    expect(cache.keys()).toEqual([]);
    expect(logs).toEqual(["Ignoring an unreadable cache entry 'pcd:data:broken'"]);
  });

  test("skips unreadable entries and logs them", async () => {
    const storage = new MemoryStorage();
    await storage.set(`${DATA_KEY_PREFIX}bad`, { key: "bad", finals: "oops" });
    await storage.set(`${DATA_KEY_PREFIX}mismatch`, entry("other"));
    const logs: string[] = [];
    const cache = new DataCache(storage, (_level, text) => logs.push(text));
    await cache.load();
    expect(cache.keys()).toEqual([]);
    expect(logs).toHaveLength(2);
  });

  test("a storage failure on write keeps the new data in memory", async () => {
    const failing: KeyValueStorage = {
      persistent: true,
      get: async () => undefined,
      set: async () => {
        throw new Error("disk full");
      },
      delete: async () => undefined,
      keys: async () => [],
    };
    const logs: string[] = [];
    const cache = new DataCache(failing, (_level, text) => logs.push(text));
    await cache.put(entry("k"));
    expect(cache.get("k")?.lastFinal).toBe("2026-10");
    expect(logs[0]).toMatch(/disk full/);
  });

  test("entries put together are persisted in one transaction", async () => {
    const storage = new MemoryStorage();
    const transactions: number[] = [];
    const setMany = storage.setMany.bind(storage);
    storage.setMany = async (entries) => {
      transactions.push(entries.length);
      await setMany(entries);
    };
    const cache = new DataCache(storage);
    await Promise.all(Array.from({ length: 40 }, (_, index) => cache.put(entry(`k${index}`, index))));
    expect(transactions).toEqual([40]);
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.keys()).toHaveLength(40);
    expect(reopened.get("k39")?.finals[0]?.value).toBe(39);
  });

  test("a failed batch is logged per entry and keeps what storage and memory held", async () => {
    const storage = new MemoryStorage();
    const logs: string[] = [];
    const cache = new DataCache(storage, (_level, text) => logs.push(text));
    await cache.put(entry("a", 1));
    storage.setMany = async () => {
      throw new Error("disk full");
    };
    await Promise.all([cache.put(entry("a", 2)), cache.put(entry("b", 3))]);
    expect(logs).toEqual(["Could not persist a: disk full", "Could not persist b: disk full"]);
    // Memory has the new data (it is good); storage still has the earlier entry, whole.
    expect(cache.get("a")?.finals[0]?.value).toBe(2);
    expect(cache.get("b")?.finals[0]?.value).toBe(3);
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("a")).toEqual(entry("a", 1));
    expect(reopened.get("b")).toBeUndefined();
  });

  test("clear drops writes still queued (a deleted entry does not come back)", async () => {
    const storage = new MemoryStorage();
    const cache = new DataCache(storage);
    void cache.put(entry("a"));
    await cache.clear();
    await cache.flush();
    expect(await storage.keys()).toEqual([]);
  });

  test("clear deletes data entries only and reports sizes", async () => {
    const storage = new MemoryStorage();
    await storage.set("pcd:settings", { environment: "live" });
    const cache = new DataCache(storage);
    await cache.put(entry("a"));
    expect(cache.size().entries).toBe(1);
    expect(cache.size().bytes).toBe(JSON.stringify(entry("a")).length);
    await cache.clear();
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
    expect(await storage.keys()).toEqual(["pcd:settings"]);
  });
});
