import type { KeyValueStorage } from "../../../src/core/environment";
import { MemoryStorage } from "../../../src/core/storage";
import { MAX_ENTRIES_PER_TRANSACTION, WriteBatch } from "../../../src/core/storage/write-batch";

/** A memory store that counts its transactions and can be told to fail the next ones. */
class CountingStorage extends MemoryStorage {
  transactions: string[][] = [];
  failNext = 0;

  override async setMany(entries: ReadonlyArray<readonly [string, unknown]>): Promise<void> {
    this.transactions.push(entries.map(([key]) => key));
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error("quota exceeded");
    }
    await super.setMany(entries);
  }
}

function recorder(): {
  failures: Array<{ keys: readonly string[]; cause: string }>;
  onFailure: (keys: readonly string[], error: unknown) => void;
} {
  const failures: Array<{ keys: readonly string[]; cause: string }> = [];
  return {
    failures,
    onFailure: (keys, error) =>
      failures.push({ keys, cause: error instanceof Error ? error.message : String(error) }),
  };
}

describe("WriteBatch", () => {
  test("writes made in the same turn go to storage in one transaction", async () => {
    const storage = new CountingStorage();
    const batch = new WriteBatch(storage, recorder().onFailure);
    const writes = Array.from({ length: 40 }, (_, index) => batch.write(`k${index}`, { index }));
    await Promise.all(writes);
    expect(storage.transactions).toHaveLength(1);
    expect(storage.transactions[0]).toHaveLength(40);
    expect(await storage.get("k39")).toEqual({ index: 39 });
  });

  test("a large batch is written in transactions of at most MAX_ENTRIES_PER_TRANSACTION; a failed one spoils no other", async () => {
    const storage = new CountingStorage();
    const { failures, onFailure } = recorder();
    const batch = new WriteBatch(storage, onFailure);
    const count = 2 * MAX_ENTRIES_PER_TRANSACTION + 50;
    storage.failNext = 1;
    await Promise.all(Array.from({ length: count }, (_, index) => batch.write(`k${index}`, index)));
    expect(storage.transactions.map((keys) => keys.length)).toEqual([
      MAX_ENTRIES_PER_TRANSACTION,
      MAX_ENTRIES_PER_TRANSACTION,
      50,
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.keys).toHaveLength(MAX_ENTRIES_PER_TRANSACTION);
    expect(await storage.get("k0")).toBeUndefined();
    expect(await storage.get(`k${count - 1}`)).toBe(count - 1);
  });

  test("only the latest value of a key is written", async () => {
    const storage = new CountingStorage();
    const batch = new WriteBatch(storage, recorder().onFailure);
    void batch.write("k", { version: 1 });
    await batch.write("k", { version: 2 });
    expect(storage.transactions).toEqual([["k"]]);
    expect(await storage.get("k")).toEqual({ version: 2 });
  });

  test("writes made while a flush runs join the next one (one transaction at a time)", async () => {
    const storage = new CountingStorage();
    const batch = new WriteBatch(storage, recorder().onFailure);
    const first = batch.write("a", 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The first flush has started; these three wait for it and then go together.
    const later = [batch.write("b", 2), batch.write("c", 3), batch.write("d", 4)];
    await Promise.all([first, ...later]);
    expect(storage.transactions).toEqual([["a"], ["b", "c", "d"]]);
  });

  test("a failed flush is reported with its keys, never rejects, and leaves earlier data as it was", async () => {
    const storage = new CountingStorage();
    const { failures, onFailure } = recorder();
    const batch = new WriteBatch(storage, onFailure);
    await batch.write("kept", { value: "old" });
    storage.failNext = 1;
    await expect(
      Promise.all([batch.write("kept", { value: "new" }), batch.write("other", 1)]),
    ).resolves.toEqual([undefined, undefined]);
    expect(failures).toEqual([{ keys: ["kept", "other"], cause: "quota exceeded" }]);
    expect(await storage.get("kept")).toEqual({ value: "old" });
    expect(await storage.get("other")).toBeUndefined();
    // The next flush works again.
    await batch.write("other", 2);
    expect(await storage.get("other")).toBe(2);
  });

  test("a store without setMany gets one set per key", async () => {
    const sets: string[] = [];
    const memory = new MemoryStorage();
    const plain: KeyValueStorage = {
      persistent: false,
      get: (key) => memory.get(key),
      set: async (key, value) => {
        sets.push(key);
        await memory.set(key, value);
      },
      delete: (key) => memory.delete(key),
      keys: () => memory.keys(),
    };
    const batch = new WriteBatch(plain, recorder().onFailure);
    await Promise.all([batch.write("a", 1), batch.write("b", 2)]);
    expect(sets).toEqual(["a", "b"]);
    expect(await memory.get("b")).toBe(2);
  });

  test("flush waits for every queued write; discarded writes never reach storage", async () => {
    const storage = new CountingStorage();
    const batch = new WriteBatch(storage, recorder().onFailure);
    void batch.write("a", 1);
    await batch.flush();
    expect(await storage.get("a")).toBe(1);
    void batch.write("b", 2);
    batch.discardPending();
    await batch.flush();
    expect(await storage.get("b")).toBeUndefined();
  });
});
