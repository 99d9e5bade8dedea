// An emulator on an ephemeral port and an engine talking to it over real HTTP, sharing
// one notion of time: the engine's clock follows the emulator's offset clock, and
// setClock moves both (or only the service, to simulate a client that is behind).
import { createEngine } from "../../../src/core/engine";
import type { Engine } from "../../../src/core/engine-api";
import type { KeyValueStorage } from "../../../src/core/environment";
import { MemoryStorage } from "../../../src/core/storage";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";

export interface EmulatorStats {
  calls: Record<"access_token" | "series_info" | "series_values" | "series_hist" | "data_limits", number>;
  dataRequests: Record<string, number>;
}

export interface Pair {
  emulator: RunningEmulator;
  engine: Engine;
  storage: KeyValueStorage;
  logs: string[];
  now(): number;
  admin<T = unknown>(path: string, body?: unknown, method?: "POST" | "GET" | "DELETE"): Promise<T>;
  stats(): Promise<EmulatorStats>;
  /** Moves the service's clock, and the engine's too unless `engineToo` is false. */
  setClock(iso: string, engineToo?: boolean): Promise<void>;
  /** A second engine on the same storage and service (a reopened workbook). */
  reopen(): Engine;
  close(): Promise<void>;
}

export async function startPair(
  start: string,
  options: Partial<EmulatorOptions> = {},
  storage: KeyValueStorage = new MemoryStorage(),
): Promise<Pair> {
  const emulator = await startEmulator({ now: start, quiet: true, latencyMs: 0, ...options });
  let offset = Date.parse(start) - Date.now();
  const now = (): number => Date.now() + offset;
  const logs: string[] = [];
  const makeEngine = (): Engine =>
    createEngine(
      {
        fetch: (input, init) => fetch(input, init),
        storage,
        clock: { now },
        log: (level, text) => logs.push(`${level}: ${text}`),
      },
      {
        settings: { baseUrl: emulator.url, authUrl: emulator.url },
        batchWindowMs: 5,
        retry: { baseDelayMs: 20, maxDelayMs: 100 },
      },
    );
  const engine = makeEngine();
  await engine.ready();
  await engine.signIn(emulator.username, emulator.password);

  const admin = async <T>(
    path: string,
    body?: unknown,
    method: "POST" | "GET" | "DELETE" = "POST",
  ): Promise<T> => {
    const response = await fetch(`${emulator.url}/__admin/${path}`, {
      method: body === undefined && method === "POST" ? "POST" : method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  return {
    emulator,
    engine,
    storage,
    logs,
    now,
    admin,
    stats: () => admin<EmulatorStats>("stats", undefined, "GET"),
    setClock: async (iso, engineToo = true) => {
      await admin("clock", { now: iso });
      if (engineToo) offset = Date.parse(iso) - Date.now();
    },
    reopen: makeEngine,
    close: () => emulator.close(),
  };
}

export function sum(record: Record<string, number>): number {
  return Object.values(record).reduce((total, n) => total + n, 0);
}
