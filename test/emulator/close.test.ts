import { startEmulator } from "../../src/emulator";

// A client that gives up on a request held by a latency fault (a timeout test, an aborted
// recalculation) must not keep the emulator's close() waiting for the held answer.
test("close() does not wait for a request the client abandoned", async () => {
  const emulator = await startEmulator({ port: 0, now: "2026-11-10T18:00:00Z", quiet: true });
  const admin = (path: string, body: unknown): Promise<Response> =>
    fetch(`${emulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const signIn = await admin("/access_token/v1", {
    username: emulator.username,
    password: emulator.password,
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  await admin("/__admin/faults", { operation: "series_info", mode: "latency", latencyMs: 60_000 });

  const abandoned = new AbortController();
  const request = fetch(`${emulator.url}/energy_price/v1/export/series`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: abandoned.signal,
  }).catch(() => "aborted");
  await new Promise((resolve) => setTimeout(resolve, 200));
  abandoned.abort();
  await expect(request).resolves.toBe("aborted");

  const closed = emulator.close().then(() => "closed");
  const stuck = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 10_000).unref());
  await expect(Promise.race([closed, stuck])).resolves.toBe("closed");
}, 20_000);
