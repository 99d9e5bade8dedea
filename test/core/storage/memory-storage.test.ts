import { MemoryStorage } from "../../../src/core/storage";

describe("MemoryStorage", () => {
  test("stores, lists and deletes values, and is not persistent", async () => {
    const storage = new MemoryStorage();
    await storage.set("a", { n: 1 });
    await storage.set("b", [1, 2]);
    expect(await storage.get("a")).toEqual({ n: 1 });
    expect((await storage.keys()).sort()).toEqual(["a", "b"]);
    await storage.delete("a");
    expect(await storage.get("a")).toBeUndefined();
    expect(storage.persistent).toBe(false);
  });

  test("callers cannot mutate stored values through their references", async () => {
    const storage = new MemoryStorage();
    const value = { list: [1] };
    await storage.set("k", value);
    value.list.push(2);
    const read = await storage.get<{ list: number[] }>("k");
    read?.list.push(3);
    expect(await storage.get("k")).toEqual({ list: [1] });
  });
});
