import type { KeyValueStorage } from "../../src/core/environment";
import { MemoryStorage } from "../../src/core/storage";
import { WORKBOOK_KEYS_STORAGE_KEY, WorkbookKeys } from "../../src/core/workbook-keys";

function countingStorage(): { storage: KeyValueStorage; writes: () => number } {
  const inner = new MemoryStorage();
  let writes = 0;
  return {
    storage: {
      persistent: false,
      get: (key) => inner.get(key),
      set: (key, value) => {
        writes++;
        return inner.set(key, value);
      },
      delete: (key) => inner.delete(key),
      keys: () => inner.keys(),
    },
    writes: () => writes,
  };
}

describe("WorkbookKeys", () => {
  test("a burst of new keys is saved once, and a reopened workbook reads them back", async () => {
    const { storage, writes } = countingStorage();
    const keys = new WorkbookKeys(storage);
    for (let i = 0; i < 500; i++) keys.add(`live|energy_price|${i}-1-1|default|default`);
    keys.add("live|energy_price|0-1-1|default|default");
    await keys.flushed();
    expect(writes()).toBe(1);
    const reopened = new WorkbookKeys(storage);
    await reopened.load();
    expect(reopened.list()).toHaveLength(500);
  });

  test("a known key causes no write", async () => {
    const { storage, writes } = countingStorage();
    const keys = new WorkbookKeys(storage);
    keys.add("k");
    await keys.flushed();
    keys.add("k");
    await keys.flushed();
    expect(writes()).toBe(1);
  });

  test("ignores a stored value that is not a list of keys", async () => {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, { not: "a list" });
    const keys = new WorkbookKeys(storage);
    await keys.load();
    expect(keys.list()).toEqual([]);
  });
});
