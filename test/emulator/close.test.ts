import { startEmulator } from "../../src/emulator";
import { until } from "../support/until";

interface EmulatorStats {
  calls: Record<string, number>;
  dataRequests: Record<string, number>;
}

// A client that gives up on a request held by a latency fault (a timeout test, an aborted
// recalculation) must leave nothing waiting in the emulator: the request is processed at
// once, as a real service would (it still counts and charges), and close() does not wait.
test("an abandoned slow request is processed at once and does not hold the emulator open", async () => {
  const emulator = await startEmulator({ port: 0, now: "2026-11-10T18:00:00Z", quiet: true });
  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${emulator.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const signIn = await post("/access_token/v1", { username: emulator.username, password: emulator.password });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const catalog = (await (
    await fetch(`${emulator.url}/energy_price/v1/export/series`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as Array<{ code: string; coverage: string }>;
  const series = catalog[0]!;
  await post("/__admin/faults", { operation: "series_values", mode: "latency", latencyMs: 60_000 });

  const stats = async (): Promise<EmulatorStats> =>
    (await (await fetch(`${emulator.url}/__admin/stats`)).json()) as EmulatorStats;
  const abandoned = new AbortController();
  const request = fetch(`${emulator.url}/energy_price/v1/export/series/${series.code}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: abandoned.signal,
  }).catch(() => "aborted");
  // The client gives up once the emulator holds the request (it counts a call as it arrives).
  await until(stats, (now) => (now.calls.series_values ?? 0) === 1, "the emulator to receive the request", {
    pollMs: 20,
  });
  abandoned.abort();
  await expect(request).resolves.toBe("aborted");

  // The held wait ends with the client: the charge appears long before the 60 s fault.
  const charged = await until(
    stats,
    (now) => (now.dataRequests[series.coverage] ?? 0) > 0,
    "the abandoned request's charge",
    { pollMs: 20 },
  );
  expect(charged.dataRequests[series.coverage]).toBe(1);

  const closed = emulator.close().then(() => "closed");
  const stuck = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 10_000).unref());
  await expect(Promise.race([closed, stuck])).resolves.toBe("closed");
}, 20_000);
