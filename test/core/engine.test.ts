import { createEngine } from "../../src/core/engine";
import type { FetchLike } from "../../src/core/environment";
import { MemoryStorage } from "../../src/core/storage";

const noNetwork: FetchLike = async () => {
  throw new TypeError("fetch failed");
};

describe("createEngine", () => {
  test("start-up settings override the stored ones until the user changes them", async () => {
    const storage = new MemoryStorage();
    await storage.set("pcd:settings", { baseUrl: "https://stored.example" });
    const startup = { baseUrl: "http://127.0.0.1:4000", authUrl: "http://127.0.0.1:4000" };
    const engine = createEngine(
      { fetch: noNetwork, storage, clock: { now: () => 0 } },
      { settings: startup },
    );
    await engine.ready();
    expect(engine.getSettings().baseUrl).toBe("http://127.0.0.1:4000");
    await engine.updateSettings({ baseUrl: "https://chosen.example" });
    expect(engine.getSettings().baseUrl).toBe("https://chosen.example");
    expect(engine.getSettings().authUrl).toBe("http://127.0.0.1:4000");
    expect(startup.baseUrl).toBe("http://127.0.0.1:4000");
  });

  test("rejects an invalid start-up setting by name", () => {
    expect(() =>
      createEngine(
        { fetch: noNetwork, storage: new MemoryStorage(), clock: { now: () => 0 } },
        { settings: { baseUrl: "http://service.example" } },
      ),
    ).toThrow(expect.objectContaining({ kind: "input", details: { argument: "baseUrl" } }));
  });

  test("without sign-in, a data request fails with the sign-in message and no call", async () => {
    const calls: string[] = [];
    const fetchSpy: FetchLike = async (input) => {
      calls.push(input);
      throw new TypeError("fetch failed");
    };
    const engine = createEngine({
      fetch: fetchSpy,
      storage: new MemoryStorage(),
      clock: { now: () => Date.UTC(2026, 10, 20, 18) },
    });
    await expect(engine.resolve("68520-8-1", null, null)).rejects.toMatchObject({ kind: "not_signed_in" });
    expect(calls).toEqual([]);
  });

  test("changing the service address signs out at once, and the pane hears it", async () => {
    // A token whose payload carries exp two hours ahead (the signature is not checked).
    const payload = Buffer.from(JSON.stringify({ iat: 0, exp: 7200 })).toString("base64url");
    const token = `eyJhbGciOiJIUzI1NiJ9.${payload}.c2lnbmF0dXJl`;
    const tokenService: FetchLike = async () =>
      new Response(JSON.stringify({ access_token: token }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    const engine = createEngine(
      { fetch: tokenService, storage: new MemoryStorage(), clock: { now: () => 0 } },
      { defaults: { baseUrl: "https://pcd.example", authUrl: "https://pcd.example" } },
    );
    await engine.signIn("analyst@pcd.example", "secret");
    const heard: boolean[] = [];
    engine.onAuthChange((status) => heard.push(status.signedIn));

    await engine.updateSettings({ baseUrl: "https://other.example" });

    expect(engine.authStatus().signedIn).toBe(false);
    expect(heard).toContain(false);
  });

  test("the host's defaults give the addresses; a stored choice of the user wins over them", async () => {
    const defaults = { baseUrl: "https://built.example", authUrl: "https://auth.built.example" };
    const fresh = createEngine(
      { fetch: noNetwork, storage: new MemoryStorage(), clock: { now: () => 0 } },
      { defaults },
    );
    await fresh.ready();
    expect(fresh.getSettings()).toMatchObject(defaults);

    const storage = new MemoryStorage();
    await storage.set("pcd:settings", { baseUrl: "https://chosen.example" });
    const returning = createEngine({ fetch: noNetwork, storage, clock: { now: () => 0 } }, { defaults });
    await returning.ready();
    expect(returning.getSettings()).toMatchObject({
      baseUrl: "https://chosen.example",
      authUrl: "https://auth.built.example",
    });
  });

  test("rejects an invalid default address by name", () => {
    expect(() =>
      createEngine(
        { fetch: noNetwork, storage: new MemoryStorage(), clock: { now: () => 0 } },
        { defaults: { authUrl: "http://service.example" } },
      ),
    ).toThrow(expect.objectContaining({ kind: "input", details: { argument: "authUrl" } }));
  });
});

describe("before any service address is set", () => {
  const calls: string[] = [];
  const fetchSpy: FetchLike = async (input) => {
    calls.push(input);
    throw new TypeError("fetch failed");
  };
  const engineWithout = (defaults = {}) =>
    createEngine(
      { fetch: fetchSpy, storage: new MemoryStorage(), clock: { now: () => Date.UTC(2026, 10, 20, 18) } },
      { defaults },
    );
  beforeEach(() => {
    calls.length = 0;
  });

  test.each([
    ["no address at all", {}],
    ["a token address only", { authUrl: "https://auth.example" }],
  ])("%s: a cell's request names the missing address and sends nothing", async (_case, defaults) => {
    const engine = engineWithout(defaults);
    await engine.ready();
    await expect(engine.resolve("68520-8-1", null, null)).rejects.toMatchObject({
      kind: "not_signed_in",
      message: expect.stringMatching(/^PCD has no service address yet: open the PCD pane .* and sign in/),
    });
    expect(calls).toEqual([]);
  });

  test("sign-in refuses to start without the addresses, instead of calling the add-in's own origin", async () => {
    const engine = engineWithout();
    await engine.ready();
    await expect(engine.signIn("analyst@pcd.example", "secret")).rejects.toMatchObject({
      kind: "input",
      message: expect.stringMatching(/service address/),
    });
    expect(calls).toEqual([]);
  });
});
