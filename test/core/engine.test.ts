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
    const engine = createEngine({
      fetch: tokenService,
      storage: new MemoryStorage(),
      clock: { now: () => 0 },
    });
    await engine.signIn("analyst@pcd.example", "secret");
    const heard: boolean[] = [];
    engine.onAuthChange((status) => heard.push(status.signedIn));

    await engine.updateSettings({ baseUrl: "https://other.example" });

    expect(engine.authStatus().signedIn).toBe(false);
    expect(heard).toContain(false);
  });
});
