// A whole PCD service behind a fetch function, for engine tests that need the real HTTP
// client (paths, retries, reachability) without a server: the token address, Series Info,
// Series Values (live and sandbox), Data Limits. It can be stopped (the connection is
// refused) or put in maintenance (503), and records every URL it was asked for.
import { createEngine } from "../../../src/core/engine";
import type { Engine, EngineSettings } from "../../../src/core/engine-api";
import type { FetchLike } from "../../../src/core/environment";
import { MemoryStorage } from "../../../src/core/storage";
import { makeJwt } from "../http/fake-fetch";

export const BASE_URL = "https://pcd.example.com";
export const AUTH_URL = "https://auth.example.com";

/** What a code answers: live and sandbox values differ, so a mix-up shows. */
export const LIVE_VALUE = 100;
export const SANDBOX_VALUE = -1;

export interface FakeSeries {
  code: string;
  coverage: string;
  lastAvailableFinal: string;
  updatedAt: string;
}

export interface FakePcd {
  fetch: FetchLike;
  urls: string[];
  /** Every request's headers, in the order asked (lower-case names). */
  headers: Array<Record<string, string>>;
  /** Series Info answers carry it as a team gateway's `pcd-catalog-read-at` (absent: none). */
  catalogReadAt?: string;
  /**
   * "down": every request is refused before it reaches the service; "maintenance": 503
   * with Retry-After (an hour); "failing": 503 with a one-second Retry-After and no word of a
   * maintenance (an outage of unknown cause, like the emulator's injected fault);
   * "token-failing": the token service answers 503, the rest answers.
   */
  mode: "up" | "down" | "maintenance" | "failing" | "token-failing";
  series: FakeSeries[];
  /** Data Limits of energy_price per dataset (the service's own count). */
  limits: Record<string, { remaining: number; total: number }>;
  /** Codes charged by 2xx data answers. */
  charged: number;
  /** Runs before a request is answered (tests hold or observe it). */
  onRequest?: (url: string) => Promise<void> | void;
  /** Claims the access token carries besides its expiry (e.g. a team gateway's issuer). */
  tokenClaims?: Record<string, unknown>;
}

function response(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

function monthDates(last: string, count: number): string[] {
  const [year, month] = last.split("-").map(Number) as [number, number];
  const dates: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const index = year * 12 + (month - 1) - i;
    dates.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-01`);
  }
  return dates;
}

export function fakePcd(series: FakeSeries[]): FakePcd {
  const pcd: FakePcd = {
    urls: [],
    mode: "up",
    series,
    limits: Object.fromEntries(
      [...new Set(series.map((item) => item.coverage))].map((dataset) => [
        dataset,
        { remaining: 500, total: 500 },
      ]),
    ),
    charged: 0,
    headers: [],
    fetch: async (input, init) => {
      pcd.urls.push(input);
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
      pcd.headers.push(headers);
      await pcd.onRequest?.(input);
      if (pcd.mode === "down") throw new TypeError("fetch failed");
      if (input.startsWith(AUTH_URL) && pcd.mode === "token-failing")
        return response({ message: "boom" }, 503);
      if (input.startsWith(AUTH_URL)) {
        return response({
          access_token: makeJwt({ exp: Math.floor(Date.now() / 1000) + 3600, ...pcd.tokenClaims }),
        });
      }
      if (pcd.mode === "failing")
        return response({ message: "Injected fault: answered with status 503" }, 503, { "Retry-After": "1" });
      if (pcd.mode === "maintenance")
        return response({ message: "Service under maintenance" }, 503, { "Retry-After": "3600" });
      const match =
        /^https:\/\/pcd\.example\.com\/(\w+)\/v1(\/sandbox)?\/(export\/series(?:_hist)?(?:\/(.*))?|data_limits)$/.exec(
          input,
        );
      if (!match) return response({ message: "Not found" }, 404);
      const [, product, sandbox, operation, segment] = match;
      const own = product === "energy_price" ? pcd.series : [];
      if (operation === "data_limits") {
        return response(
          Object.fromEntries(
            Object.entries(pcd.limits).map(([dataset, limit]) => [
              dataset,
              { remaining_requests: limit.remaining, total_requests: limit.total },
            ]),
          ),
        );
      }
      if (segment === undefined) {
        return response(
          own.map((item) => ({
            code: item.code,
            coverage: item.coverage,
            assessment: "Gas",
            product: "Energy",
            default_currency: "EUR",
            available_currencies: "EUR, USD",
            default_unit: "MWh",
            available_units: "MWh",
            has_forecast: "False",
            last_available_final: `${item.lastAvailableFinal}-01`,
            updated_at: item.updatedAt,
          })),
          200,
          pcd.catalogReadAt === undefined ? {} : { "pcd-catalog-read-at": pcd.catalogReadAt },
        );
      }
      const codes = decodeURIComponent(segment)
        .split(",")
        .map((part) => part.split("&")[0] ?? "");
      const records = own.filter((item) => codes.includes(item.code));
      if (!sandbox) {
        pcd.charged += codes.length;
        for (const item of records) {
          const limit = pcd.limits[item.coverage];
          if (limit) limit.remaining -= 1;
        }
      }
      return response(
        records.map((item) => ({
          code: item.code,
          currency: "EUR",
          unit: "MWh",
          updated_at: item.updatedAt,
          series_final_values: monthDates(item.lastAvailableFinal, 13).map((date) => ({
            date,
            value: sandbox ? SANDBOX_VALUE : LIVE_VALUE,
          })),
          series_forecast_values: [],
        })),
      );
    },
  };
  return pcd;
}

/**
 * An engine on the fake service, signed in. Call under jest fake timers (setImmediate,
 * nextTick and queueMicrotask left real): time only moves when the test advances it.
 */
export async function signedInEngine(
  pcd: FakePcd,
  settings: Partial<EngineSettings> = {},
  storage = new MemoryStorage(),
): Promise<Engine> {
  const engine = createEngine(
    { fetch: pcd.fetch, storage, clock: { now: () => Date.now() } },
    { settings: { baseUrl: BASE_URL, authUrl: AUTH_URL, ...settings } },
  );
  await engine.ready();
  const signingIn = engine.signIn("analyst@example.com", "secret");
  await jest.advanceTimersByTimeAsync(1_000);
  await signingIn;
  return engine;
}

/** Runs an engine call while advancing fake time, so retries and batch windows pass. */
export async function settle<T>(promise: Promise<T>, ms = 60_000): Promise<PromiseSettledResult<T>> {
  const outcome = Promise.allSettled([promise]);
  await jest.advanceTimersByTimeAsync(ms);
  const [result] = await outcome;
  if (!result) throw new Error("settle: no outcome");
  return result;
}
