import {
  createDocumentSettingsStorage,
  type DocumentSettings,
} from "../../src/workbook/document-settings-storage";
import { requestKeyOf } from "../../src/core/request-key";
import { LATEST_ONLY } from "../../src/core/series-need";
import { WorkbookKeys } from "../../src/core/workbook-keys";

/** Office.Settings as Excel keeps it: values in memory, saveAsync writes them to the workbook. */
class FakeSettings implements DocumentSettings {
  readonly values = new Map<string, unknown>();
  saved = new Map<string, unknown>();
  failSave = false;
  get(name: string): unknown {
    return this.values.has(name) ? this.values.get(name) : null;
  }
  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }
  remove(name: string): void {
    this.values.delete(name);
  }
  saveAsync(callback: (result: { status: unknown; error?: { message: string } }) => void): void {
    const ok = !this.failSave;
    if (ok) this.saved = new Map(this.values);
    callback(
      ok ? { status: "succeeded" } : { status: "failed", error: { message: "document is read-only" } },
    );
  }
}

beforeAll(() => {
  // The adapter compares against Office.AsyncResultStatus; the real enum values are strings.
  (globalThis as unknown as { Office: unknown }).Office = {
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
  };
});

describe("workbook storage in Office document settings", () => {
  test("the workbook's keys are saved into the workbook and read back by a reopened workbook", async () => {
    const settings = new FakeSettings();
    const keys = new WorkbookKeys(createDocumentSettingsStorage(settings));
    const key = requestKeyOf({
      environment: "live",
      product: "energy_price",
      code: "68520-8-1",
      currencyId: null,
      unitId: null,
    });
    keys.add(key, LATEST_ONLY);
    await keys.flushed();
    expect(settings.saved.get("pcd.pcd:workbook-keys")).toEqual([
      {
        environment: "live",
        product: "energy_price",
        code: "68520-8-1",
        currencyId: null,
        unitId: null,
        need: { from: "latest", to: null },
      },
    ]);

    const reopened = new WorkbookKeys(createDocumentSettingsStorage(settings));
    await reopened.load();
    expect(reopened.list()).toEqual([key]);
    expect(reopened.need(key.id)).toEqual(LATEST_ONLY);
  });

  test("a save the workbook refuses rejects with the cause", async () => {
    const settings = new FakeSettings();
    settings.failSave = true;
    const storage = createDocumentSettingsStorage(settings);
    await expect(storage.set("k", 1)).rejects.toThrow(/document is read-only/);
  });

  type Storage = ReturnType<typeof createDocumentSettingsStorage>;
  test.each<[string, string, (storage: Storage) => Promise<void>, unknown]>([
    ["a new value", "new", (storage) => storage.set("new", 3), undefined],
    ["a changed value", "kept", (storage) => storage.set("kept", 3), 1],
    ["a deleted value", "kept", (storage) => storage.delete("kept"), 1],
  ])(
    "a change whose save failed never reaches the file with a later save: %s",
    async (_label, name, change, kept) => {
      const settings = new FakeSettings();
      const storage = createDocumentSettingsStorage(settings);
      await storage.set("kept", 1);
      settings.failSave = true;
      await expect(change(storage)).rejects.toThrow(/document is read-only/);
      expect(await storage.get(name)).toBe(kept);

      settings.failSave = false;
      await storage.set("other", 2);
      expect(settings.saved.get(`pcd.${name}`)).toBe(kept);
      expect(settings.saved.get("pcd.other")).toBe(2);
    },
  );

  test("delete removes the value and lists only what remains", async () => {
    const storage = createDocumentSettingsStorage(new FakeSettings());
    await storage.set("a", 1);
    await storage.set("b", 2);
    await storage.delete("a");
    await expect(storage.get("a")).resolves.toBeUndefined();
    await expect(storage.keys()).resolves.toEqual(["b"]);
  });
});
