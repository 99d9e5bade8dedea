import "fake-indexeddb/auto";
import type { KeyValueStorage } from "../../../src/core/environment";
import { createIdbStorage, createResilientStorage } from "../../../src/core/storage";

function brokenStorage(behaviour: "throw" | "hang"): KeyValueStorage {
  const fail = (): Promise<never> =>
    behaviour === "throw"
      ? Promise.reject(new Error("QuotaExceededError"))
      : new Promise<never>(() => undefined);
  return { persistent: true, get: fail, set: fail, delete: fail, keys: fail };
}

describe("createResilientStorage", () => {
  test("setMany goes to the primary, and to memory once the primary has failed", async () => {
    const working = createResilientStorage(createIdbStorage("pcd-resilient-many", "kv"), { timeoutMs: 1000 });
    await working.setMany?.([
      ["a", 1],
      ["b", 2],
    ]);
    expect(await createIdbStorage("pcd-resilient-many", "kv").get("b")).toBe(2);
    const broken = createResilientStorage(brokenStorage("throw"), { timeoutMs: 50 });
    await broken.setMany?.([
      ["a", 1],
      ["b", 2],
    ]);
    expect(await broken.get("b")).toBe(2);
    expect(broken.fallbackReason()).toMatch(/QuotaExceededError/);
  });

  test("passes through to a working IndexedDB", async () => {
    const storage = createResilientStorage(createIdbStorage("pcd-resilient-ok", "kv"), { timeoutMs: 1000 });
    await storage.set("k", 1);
    expect(await storage.get("k")).toBe(1);
    expect(storage.persistent).toBe(true);
    expect(storage.fallbackReason()).toBeNull();
  });

  test.each([
    [
      "throws",
      "throw" as const,
      "IndexedDB is unavailable (QuotaExceededError); PCD runs from memory this session",
    ],
    [
      "hangs",
      "hang" as const,
      "IndexedDB is unavailable (no answer within 0.05 s); PCD runs from memory this session",
    ],
  ])("falls back to memory when the primary %s, and says why", async (_case, behaviour, reason) => {
    const reasons: string[] = [];
    const storage = createResilientStorage(brokenStorage(behaviour), {
      timeoutMs: 50,
      onFallback: (text) => reasons.push(text),
    });
    await storage.set("k", { v: 1 });
    expect(await storage.get("k")).toEqual({ v: 1 });
    expect(await storage.keys()).toEqual(["k"]);
    expect(storage.persistent).toBe(false);
    expect(storage.fallbackReason()).toBe(reason);
    expect(reasons).toEqual([reason]);
  });

  test("falls back when IndexedDB does not exist at all", async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error -- simulating a host without IndexedDB
    delete globalThis.indexedDB;
    try {
      const storage = createResilientStorage(createIdbStorage("pcd-missing", "kv"), { timeoutMs: 200 });
      await storage.set("k", 2);
      expect(await storage.get("k")).toBe(2);
      expect(storage.fallbackReason()).toMatch(
        /^IndexedDB is unavailable \(.*indexedDB.*\); PCD runs from memory/,
      );
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
