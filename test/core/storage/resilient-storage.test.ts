import "fake-indexeddb/auto";
import type { KeyValueStorage } from "../../../src/core/environment";
import { createIdbStorage, createResilientStorage } from "../../../src/core/storage";
import { HeldTimers } from "../../support/held-timers";
import { until } from "../../support/until";

function brokenStorage(behaviour: "throw" | "hang"): KeyValueStorage {
  const fail = (): Promise<never> =>
    behaviour === "throw"
      ? Promise.reject(new Error("QuotaExceededError"))
      : new Promise<never>(() => undefined);
  return { persistent: true, get: fail, set: fail, delete: fail, keys: fail };
}

describe("createResilientStorage", () => {
  test("setMany goes to the primary, and to memory once the primary has failed", async () => {
    const working = createResilientStorage(createIdbStorage("pcd-resilient-many", "kv"), {
      scheduler: new HeldTimers(),
    });
    await working.setMany?.([
      ["a", 1],
      ["b", 2],
    ]);
    expect(await createIdbStorage("pcd-resilient-many", "kv").get("b")).toBe(2);
    expect(working.fallbackReason()).toBeNull();
    const broken = createResilientStorage(brokenStorage("throw"), { scheduler: new HeldTimers() });
    await broken.setMany?.([
      ["a", 1],
      ["b", 2],
    ]);
    expect(await broken.get("b")).toBe(2);
    expect(broken.fallbackReason()).toMatch(/QuotaExceededError/);
  });

  test("passes through to a working IndexedDB; each operation's watchdog is set and cancelled", async () => {
    const timers = new HeldTimers();
    const storage = createResilientStorage(createIdbStorage("pcd-resilient-ok", "kv"), {
      timeoutMs: 1000,
      scheduler: timers,
    });
    await storage.set("k", 1);
    expect(await storage.get("k")).toBe(1);
    expect(timers.set).toBe(2);
    expect(timers.pending).toEqual([]);
    expect(storage.persistent).toBe(true);
    expect(storage.fallbackReason()).toBeNull();
  });

  test("a hanging store counts as unavailable only when its watchdog runs out", async () => {
    const timers = new HeldTimers();
    const storage = createResilientStorage(brokenStorage("hang"), { timeoutMs: 3000, scheduler: timers });
    let written = false;
    const write = storage.set("k", 1).then(() => {
      written = true;
    });
    await until(
      () => timers.pending.length,
      (count) => count === 1,
      "the watchdog is set",
    );
    expect(timers.pending[0]!.ms).toBe(3000);
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    expect(storage.fallbackReason()).toBeNull();
    timers.fire();
    await write;
    expect(storage.fallbackReason()).toBe(
      "IndexedDB is unavailable (no answer within 3 s); PCD runs from memory this session",
    );
    expect(await storage.get("k")).toBe(1);
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
    const timers = new HeldTimers();
    const storage = createResilientStorage(brokenStorage(behaviour), {
      timeoutMs: 50,
      onFallback: (text) => reasons.push(text),
      scheduler: timers,
    });
    const written = storage.set("k", { v: 1 });
    // A hanging primary answers nothing: its watchdog runs out when the test says so.
    if (behaviour === "hang") {
      await until(
        () => timers.pending.length,
        (count) => count === 1,
        "the watchdog is set",
      );
      timers.fire();
    }
    await written;
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
      const storage = createResilientStorage(createIdbStorage("pcd-missing", "kv"), {
        scheduler: new HeldTimers(),
      });
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
