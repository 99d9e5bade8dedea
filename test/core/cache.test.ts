import {
  COLUMNS_FORMAT,
  DATA_KEY_PREFIX,
  DataCache,
  PACKED_FORMAT,
  TEXT_FORMAT,
  toStored,
} from "../../src/core/cache";
import type { KeyValueStorage } from "../../src/core/environment";
import { MemoryStorage } from "../../src/core/storage";
import { cacheEntry as entry } from "../support/cache-entry";

describe("DataCache", () => {
  test("persists entries and reads them back after a restart", async () => {
    const storage = new MemoryStorage();
    const cache = new DataCache(storage);
    await cache.put(entry("live|energy_price|1-1-1|default|default"));
    await cache.put(entry("sandbox|energy_price|1-1-1|default|default", -1));
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("live|energy_price|1-1-1|default|default")?.finals.valueAt(0)).toBe(1);
    expect(reopened.get("sandbox|energy_price|1-1-1|default|default")?.finals.valueAt(0)).toBe(-1);
    expect(await storage.keys()).toContain(`${DATA_KEY_PREFIX}live|energy_price|1-1-1|default|default`);
  });

  test("a history revision not bought yet is kept through a restart", async () => {
    const storage = new MemoryStorage();
    const revised = { ...entry("revised"), historyAsOf: "2026-11-04", historyRevisedAt: "2026-12-03" };
    await new DataCache(storage).put(revised);
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("revised")).toEqual(revised);
  });

  test("entries are stored as runs of month indexes and a column of values; entries stored as texts, flat arrays or one object per month still load", async () => {
    const storage = new MemoryStorage();
    await new DataCache(storage).put(entry("columns", 2));
    expect(await storage.get(`${DATA_KEY_PREFIX}columns`)).toMatchObject({
      format: COLUMNS_FORMAT,
      finals: { months: `[[${2026 * 12 + 9},1]]`, values: new Float64Array([2]) },
      forecasts: { months: "[]", values: new Float64Array(0) },
      lastFinal: "2026-10",
    });
    // Format 3: the values as a JSON text.
    await storage.set(`${DATA_KEY_PREFIX}texts`, {
      ...entry("texts", 5),
      format: TEXT_FORMAT,
      finals: { months: `[[${2026 * 12 + 9},1]]`, values: "[5]" },
      forecasts: { months: "[]", values: "[]" },
    });
    await storage.set(`${DATA_KEY_PREFIX}packed`, {
      ...entry("packed", 4),
      format: PACKED_FORMAT,
      finals: { months: [2026 * 12 + 9], values: [4] },
      forecasts: { months: [], values: [] },
    });
    // The first stored form: one object per month.
    await storage.set(`${DATA_KEY_PREFIX}legacy`, {
      ...entry("legacy", 3),
      finals: [{ month: "2026-10", value: 3 }],
      forecasts: [],
    });
    const reopened = new DataCache(storage);
    await reopened.load();
    expect(reopened.get("columns")).toEqual(entry("columns", 2));
    expect(reopened.get("texts")).toEqual(entry("texts", 5));
    expect(reopened.get("packed")).toEqual(entry("packed", 4));
    expect(reopened.get("legacy")).toEqual(entry("legacy", 3));
  });

  test.each<[string, Record<string, unknown>]>([
    ["runs longer than the values", { finals: { months: "[[1,2]]", values: new Float64Array([1]) } }],
    ["a months text that is not JSON", { forecasts: { months: "[", values: new Float64Array(0) } }],
    ["months as a list", { finals: { months: [1], values: new Float64Array([1]) } }],
    ["a value that is not finite", { finals: { months: "[[1,1]]", values: new Float64Array([Infinity]) } }],
    ["values as a text", { finals: { months: "[[1,1]]", values: "[1]" } }],
    [
      "texts of different lengths (format 3)",
      {
        format: TEXT_FORMAT,
        finals: { months: "[[1,2]]", values: "[1]" },
        forecasts: { months: "[]", values: "[]" },
      },
    ],
    [
      "flat arrays of different lengths",
      {
        format: PACKED_FORMAT,
        finals: { months: [1, 2], values: [1] },
        forecasts: { months: [], values: [] },
      },
    ],
  ])("skips a stored entry with %s, and logs it", async (_case, damage) => {
    const storage = new MemoryStorage();
    await storage.set(`${DATA_KEY_PREFIX}damaged`, { ...toStored(entry("damaged")), ...damage });
    const logs: string[] = [];
    const cache = new DataCache(storage, (_level, text) => logs.push(text));
    await cache.load();
    expect(cache.keys()).toEqual([]);
    expect(logs).toEqual(["Ignoring an unreadable cache entry 'pcd:data:damaged'"]);
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
    expect(reopened.get("k39")?.finals.valueAt(0)).toBe(39);
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
    expect(cache.get("a")?.finals.valueAt(0)).toBe(2);
    expect(cache.get("b")?.finals.valueAt(0)).toBe(3);
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
    expect((await cache.size()).entries).toBe(1);
    expect((await cache.size()).bytes).toBe(JSON.stringify(entry("a")).length);
    await cache.clear();
    expect(await cache.size()).toEqual({ entries: 0, bytes: 0 });
    expect(await storage.keys()).toEqual(["pcd:settings"]);
  });
});

/** A storage that counts the entries read, and can hold a read or fail the next ones. */
function readCountingStorage(): {
  storage: KeyValueStorage;
  reads: string[];
  failReads: (fail: boolean) => void;
} {
  const inner = new MemoryStorage();
  const reads: string[] = [];
  let failing = false;
  return {
    storage: {
      persistent: true,
      get: async <T>(key: string) => {
        reads.push(key);
        if (failing) throw new Error("the disk is busy");
        return inner.get<T>(key);
      },
      set: (key, value) => inner.set(key, value),
      delete: (key) => inner.delete(key),
      keys: () => inner.keys(),
    },
    reads,
    failReads: (fail) => {
      failing = fail;
    },
  };
}

describe("DataCache reads stored series per key", () => {
  const A = "live|energy_price|1-1-1|default|default";
  const B = "live|energy_price|2-2-2|default|default";
  const C = "live|energy_price|3-3-3|default|default";

  async function storedABC(): Promise<ReturnType<typeof readCountingStorage>> {
    const counting = readCountingStorage();
    const writer = new DataCache(counting.storage);
    await Promise.all([writer.put(entry(A, 1)), writer.put(entry(B, 2)), writer.put(entry(C, 3))]);
    counting.reads.length = 0;
    return counting;
  }

  test("start-up reads the workbook's keys only; another key is read when first ensured, once for many callers", async () => {
    const { storage, reads } = await storedABC();
    const cache = new DataCache(storage);
    await cache.load([A]);
    expect(reads).toEqual([DATA_KEY_PREFIX + A]);
    expect(cache.get(A)?.finals.valueAt(0)).toBe(1);
    expect(cache.get(B)).toBeUndefined();
    expect(cache.keys().sort()).toEqual([A, B, C]);
    await Promise.all([cache.ensure(B), cache.ensure(B), cache.ensureMany([B, A])]);
    expect(cache.get(B)?.finals.valueAt(0)).toBe(2);
    expect(reads).toEqual([DATA_KEY_PREFIX + A, DATA_KEY_PREFIX + B]);
    await cache.ensure(B);
    await cache.ensure("live|energy_price|9-9-9|default|default");
    expect(reads).toHaveLength(2);
  });

  test("an entry put while its stored version is being read stays (memory is newer)", async () => {
    const { storage } = await storedABC();
    const cache = new DataCache(storage);
    await cache.load([]);
    const reading = cache.ensure(A);
    void cache.put(entry(A, 42));
    await reading;
    expect(cache.get(A)?.finals.valueAt(0)).toBe(42);
  });

  test("a read that fails leaves the key unread: the next use tries again", async () => {
    const { storage, failReads } = await storedABC();
    const logs: string[] = [];
    const cache = new DataCache(storage, (_level, text) => logs.push(text));
    await cache.load([]);
    failReads(true);
    await cache.ensure(A);
    expect(cache.get(A)).toBeUndefined();
    expect(logs).toEqual([`Could not read the cached ${A}: the disk is busy`]);
    failReads(false);
    await cache.ensure(A);
    expect(cache.get(A)?.finals.valueAt(0)).toBe(1);
  });

  test("sizes count the entries not read yet without keeping them; clear deletes them too", async () => {
    const { storage } = await storedABC();
    const cache = new DataCache(storage);
    await cache.load([A]);
    expect(await cache.size()).toEqual({ entries: 3, bytes: 3 * JSON.stringify(entry(A, 1)).length });
    expect(cache.get(B)).toBeUndefined();
    await cache.clear();
    expect(cache.keys()).toEqual([]);
    expect(await storage.keys()).toEqual([]);
    await cache.ensure(B);
    expect(cache.get(B)).toBeUndefined();
  });
});
