import "fake-indexeddb/auto";
import { createIdbStorage } from "../../../src/core/storage";

describe("createIdbStorage (fake-indexeddb)", () => {
  test("persists values in its own database and store", async () => {
    const storage = createIdbStorage("pcd-test-1", "kv");
    await storage.set("pcd:data:x", { finals: [{ month: "2026-01", value: 1 }] });
    // A second adapter on the same database sees the data (it survives a reopen).
    const reopened = createIdbStorage("pcd-test-1", "kv");
    expect(await reopened.get("pcd:data:x")).toEqual({ finals: [{ month: "2026-01", value: 1 }] });
    expect(await reopened.keys()).toEqual(["pcd:data:x"]);
    await reopened.delete("pcd:data:x");
    expect(await storage.get("pcd:data:x")).toBeUndefined();
    expect(storage.persistent).toBe(true);
  });

  test("setMany writes several keys at once", async () => {
    const storage = createIdbStorage("pcd-test-2", "kv");
    await storage.setMany?.([
      ["a", { v: 1 }],
      ["b", { v: 2 }],
    ]);
    expect(await createIdbStorage("pcd-test-2", "kv").get("b")).toEqual({ v: 2 });
    expect((await storage.keys()).sort()).toEqual(["a", "b"]);
  });
});
