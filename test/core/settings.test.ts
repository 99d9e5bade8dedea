import type { EngineSettings } from "../../src/core/engine-api";
import type { KeyValueStorage } from "../../src/core/environment";
import { PcdError } from "../../src/core/errors";
import {
  DEFAULT_SETTINGS,
  SETTINGS_STORAGE_KEY,
  SettingsStore,
  validateSettings,
} from "../../src/core/settings";

class MemoryStorage implements KeyValueStorage {
  readonly persistent = false;
  readonly data = new Map<string, unknown>();
  failWrites = false;
  async get<T>(key: string): Promise<T | undefined> {
    return this.data.get(key) as T | undefined;
  }
  async set(key: string, value: unknown): Promise<void> {
    if (this.failWrites) throw new Error("disk full");
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
  }
  async keys(): Promise<string[]> {
    return [...this.data.keys()];
  }
}

function inputError(patch: Record<string, unknown>): PcdError {
  try {
    validateSettings(patch as Partial<EngineSettings>);
  } catch (error) {
    if (error instanceof PcdError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(patch)} to be rejected`);
}

describe("DEFAULT_SETTINGS", () => {
  test("carry no service address (the host gives one) and the documented defaults", () => {
    expect(DEFAULT_SETTINGS).toEqual({
      environment: "live",
      baseUrl: "",
      authUrl: "",
      productPaths: {
        energy_price: "/energy_price",
        commodity_price: "/commodity_price",
        industry_economics: "/industry_economics",
      },
      releaseBusinessDay: 3,
      autoRefreshAfterRelease: false,
      callTimeoutMs: 130_000,
      historyTimeoutMs: 300_000,
    });
  });
});

describe("validateSettings accepts and normalises", () => {
  test.each<[Record<string, unknown>, Partial<EngineSettings>]>([
    [{ baseUrl: "https://api.example.com/" }, { baseUrl: "https://api.example.com" }],
    [{ baseUrl: "https://api.example.com/pcd//" }, { baseUrl: "https://api.example.com/pcd" }],
    [{ authUrl: " https://auth.example.com " }, { authUrl: "https://auth.example.com" }],
    [{ baseUrl: "http://localhost:3001" }, { baseUrl: "http://localhost:3001" }],
    [{ baseUrl: "http://127.0.0.1:4000/" }, { baseUrl: "http://127.0.0.1:4000" }],
    [{ baseUrl: "http://[::1]:3001" }, { baseUrl: "http://[::1]:3001" }],
    [{ environment: "sandbox" }, { environment: "sandbox" }],
    [
      { productPaths: { energy_price: "/energy/" } },
      { productPaths: { energy_price: "/energy" } as EngineSettings["productPaths"] },
    ],
    [{ releaseBusinessDay: 1 }, { releaseBusinessDay: 1 }],
    [{ releaseBusinessDay: 10 }, { releaseBusinessDay: 10 }],
    [{ autoRefreshAfterRelease: true }, { autoRefreshAfterRelease: true }],
    [{ callTimeoutMs: 1_000 }, { callTimeoutMs: 1_000 }],
    [{ historyTimeoutMs: 900_000 }, { historyTimeoutMs: 900_000 }],
    [{}, {}],
  ])("%o -> %o", (patch, expected) => {
    expect(validateSettings(patch as Partial<EngineSettings>)).toEqual(expected);
  });
});

describe("validateSettings rejects, naming the field", () => {
  test.each<[Record<string, unknown>, string, RegExp]>([
    [{ baseUrl: "http://api.example.com" }, "baseUrl", /must use https/],
    [{ baseUrl: "ftp://127.0.0.1" }, "baseUrl", /must use https/],
    [{ authUrl: "not a url" }, "authUrl", /not a valid address/],
    [{ authUrl: "" }, "authUrl", /address is required/],
    [{ baseUrl: "https://user:secret@api.example.com" }, "baseUrl", /user name or password/],
    [{ baseUrl: "https://api.example.com/?a=1" }, "baseUrl", /query/],
    [{ baseUrl: "https://api.example.com/#top" }, "baseUrl", /fragment/],
    [{ baseUrl: 42 }, "baseUrl", /address is required/],
    [{ environment: "production" }, "environment", /"live" or "sandbox"/],
    [{ productPaths: { energy_price: "energy_price" } }, "productPaths.energy_price", /start with "\/"/],
    [{ productPaths: { energy_price: "/" } }, "productPaths.energy_price", /must not be empty/],
    [{ productPaths: { energy_price: "/a b" } }, "productPaths.energy_price", /spaces/],
    [{ productPaths: { gas: "/gas" } }, "productPaths.gas", /unknown product/],
    [{ productPaths: "/x" }, "productPaths", /object/],
    [{ releaseBusinessDay: 0 }, "releaseBusinessDay", /1 to 10/],
    [{ releaseBusinessDay: 11 }, "releaseBusinessDay", /1 to 10/],
    [{ releaseBusinessDay: 2.5 }, "releaseBusinessDay", /whole number/],
    [{ autoRefreshAfterRelease: "yes" }, "autoRefreshAfterRelease", /true or false/],
    [{ callTimeoutMs: 999 }, "callTimeoutMs", /1000 ms to 900000 ms/],
    [{ historyTimeoutMs: 900_001 }, "historyTimeoutMs", /1000 ms to 900000 ms/],
    [{ password: "hunter2" }, "password", /not a setting/],
  ])("%o is rejected for %s", (patch, field, reason) => {
    const error = inputError(patch);
    expect(error.kind).toBe("input");
    expect(error.details.argument).toBe(field);
    expect(error.message).toContain(field);
    expect(error.message).toMatch(reason);
  });

  test("the rejected password never appears in the message", () => {
    expect(inputError({ password: "hunter2" }).message).not.toContain("hunter2");
  });
});

describe("SettingsStore", () => {
  test("starts from the defaults when nothing is stored", async () => {
    const store = new SettingsStore(new MemoryStorage());
    await expect(store.load()).resolves.toEqual(DEFAULT_SETTINGS);
  });

  test("persists an update under pcd:settings and loads it back", async () => {
    const storage = new MemoryStorage();
    const store = new SettingsStore(storage);
    await store.load();
    const updated = await store.update({
      environment: "sandbox",
      productPaths: { industry_economics: "/ie" } as EngineSettings["productPaths"],
    });
    expect(updated.environment).toBe("sandbox");
    expect(updated.productPaths).toEqual({ ...DEFAULT_SETTINGS.productPaths, industry_economics: "/ie" });
    const reloaded = await new SettingsStore(storage).load();
    expect(reloaded).toEqual(updated);
    expect(storage.data.has(SETTINGS_STORAGE_KEY)).toBe(true);
  });

  test("stores only EngineSettings fields, never a password", async () => {
    const storage = new MemoryStorage();
    const store = new SettingsStore(storage);
    await expect(
      store.update({ password: "hunter2" } as unknown as Partial<EngineSettings>),
    ).rejects.toMatchObject({ kind: "input" });
    await store.update({ releaseBusinessDay: 4 });
    const stored = JSON.stringify([...storage.data.values()]);
    expect(stored).not.toContain("hunter2");
    expect(Object.keys(storage.data.get(SETTINGS_STORAGE_KEY) as object).sort()).toEqual(
      Object.keys(DEFAULT_SETTINGS).sort(),
    );
  });

  test("an invalid update changes nothing", async () => {
    const storage = new MemoryStorage();
    const store = new SettingsStore(storage);
    await store.load();
    await expect(store.update({ releaseBusinessDay: 4, callTimeoutMs: 5 })).rejects.toMatchObject({
      kind: "input",
    });
    expect(store.current()).toEqual(DEFAULT_SETTINGS);
    expect(storage.data.size).toBe(0);
  });

  test("a failed write reports a storage error and keeps the previous settings", async () => {
    const storage = new MemoryStorage();
    storage.failWrites = true;
    const store = new SettingsStore(storage);
    await expect(store.update({ releaseBusinessDay: 4 })).rejects.toMatchObject({
      kind: "storage",
      message: expect.stringContaining("disk full"),
    });
    expect(store.current().releaseBusinessDay).toBe(3);
  });

  test("bad or unknown stored fields fall back to defaults with a warning", async () => {
    const storage = new MemoryStorage();
    storage.data.set(SETTINGS_STORAGE_KEY, {
      environment: "sandbox",
      baseUrl: "http://evil.example.com",
      releaseBusinessDay: 99,
      password: "leaked",
    });
    const warnings: string[] = [];
    const store = new SettingsStore(storage, (level, message) => {
      if (level === "warn") warnings.push(message);
    });
    const loaded = await store.load();
    expect(loaded).toEqual({ ...DEFAULT_SETTINGS, environment: "sandbox" });
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(loaded)).not.toContain("leaked");
  });

  test("environment() and releaseBusinessDay() read what current() holds, after loads and updates", async () => {
    const storage = new MemoryStorage();
    const store = new SettingsStore(storage);
    const agree = (): void => {
      expect(store.environment()).toBe(store.current().environment);
      expect(store.releaseBusinessDay()).toBe(store.current().releaseBusinessDay);
    };
    agree();
    await store.load();
    agree();
    await store.update({ environment: "sandbox", releaseBusinessDay: 5 });
    agree();
    expect([store.environment(), store.releaseBusinessDay()]).toEqual(["sandbox", 5]);
    const reloaded = new SettingsStore(storage);
    await reloaded.load();
    expect([reloaded.environment(), reloaded.releaseBusinessDay()]).toEqual(["sandbox", 5]);
  });

  test("current() is a copy: mutating it does not change the store", async () => {
    const store = new SettingsStore(new MemoryStorage());
    await store.load();
    const copy = store.current();
    copy.productPaths.energy_price = "/changed";
    expect(store.current().productPaths.energy_price).toBe("/energy_price");
  });
});
