// A team in a test: the emulator as the service, a gateway in front of it, members, and the
// workbooks they run (overlapping: every member's cells hold shared series and some of their own).
import { startEmulator, type RunningEmulator } from "../../../src/emulator";
import { startGateway, type GatewaySettings, type RunningGateway } from "../../../src/gateway/gateway-app";
import type { GatewayStore } from "../../../src/gateway/store/gateway-store";

/** A Tuesday after November's release day, away from maintenance days. */
export const QUIET_DAY = "2026-11-10T15:00:00Z";

export interface ServiceUnderTest {
  emulator: RunningEmulator;
  /** The emulator's clock, read through its admin API once and then flowing. */
  now(): number;
  admin(method: "GET" | "POST", route: string, body?: unknown): Promise<Record<string, unknown>>;
  stats(): Promise<{ calls: Record<string, number>; dataRequests: Record<string, number> }>;
  /** Moves the emulator's clock (and so the gateway's, which reads now()). */
  setClock(iso: string): Promise<void>;
  close(): Promise<void>;
}

export async function startService(now = QUIET_DAY): Promise<ServiceUnderTest> {
  const emulator = await startEmulator({ quiet: true, now, port: 0, host: "127.0.0.1" });
  const admin = async (method: "GET" | "POST", route: string, body?: unknown) => {
    const response = await fetch(`${emulator.url}/__admin/${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`admin ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  let offset = 0;
  const sync = async () => {
    const clock = (await admin("GET", "clock")) as { now: string };
    offset = Date.parse(clock.now) - Date.now();
  };
  await sync();
  return {
    emulator,
    now: () => Date.now() + offset,
    admin,
    stats: async () => (await admin("GET", "stats")) as Awaited<ReturnType<ServiceUnderTest["stats"]>>,
    setClock: async (iso) => {
      await admin("POST", "clock", { now: iso });
      await sync();
    },
    close: () => emulator.close(),
  };
}

/** The emulator as a gateway's upstream, with the Developer account; tests replace `fetch` to hold calls. */
export function upstreamOf(service: ServiceUnderTest): GatewaySettings["upstream"] {
  return {
    base: service.emulator.url,
    auth: service.emulator.url,
    credentials: { username: service.emulator.username, password: service.emulator.password },
    fetch: (input, init) => fetch(input, init),
    now: service.now,
  };
}

export async function startTeamGateway(
  service: ServiceUnderTest,
  store: GatewayStore,
  settings: Partial<GatewaySettings> = {},
): Promise<RunningGateway> {
  return startGateway(
    {
      upstream: upstreamOf(service),
      store,
      now: service.now,
      ...settings,
    },
    { port: 0, host: "127.0.0.1" },
  );
}

export interface CatalogRecord {
  code: string;
  coverage: string;
}

/** A product's Series Info, read straight from the emulator (costs no data request). */
export async function catalogOf(service: ServiceUnderTest, product: string): Promise<CatalogRecord[]> {
  const token = await fetch(`${service.emulator.url}/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: service.emulator.username, password: service.emulator.password }),
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const response = await fetch(`${service.emulator.url}/${product}/v1/export/series`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return (await response.json()) as CatalogRecord[];
}

/** Charged data requests in all, from the emulator's counters. */
export function totalDataRequests(stats: { dataRequests: Record<string, number> }): number {
  return Object.values(stats.dataRequests).reduce((sum, count) => sum + count, 0);
}

/** Calls the service received in all (every operation, answered or refused), from the emulator's counters. */
export function totalCalls(stats: { calls: Record<string, number> }): number {
  return Object.values(stats.calls).reduce((sum, count) => sum + count, 0);
}

/** A Series Values or History record as a test reads it: its code and its points' dates. */
export interface DatedRecord {
  code: string;
  series_final_values: Array<{ date: string }>;
}

/** The member's token from the gateway's sign-in. */
export async function memberToken(
  gatewayUrl: string,
  member: { username: string; password: string },
): Promise<string> {
  const signIn = await fetch(`${gatewayUrl}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(member),
  });
  return ((await signIn.json()) as { access_token: string }).access_token;
}

/** Signs in to the gateway as the member and asks for a data path under /api; throws unless 200. */
export async function askGateway(
  gatewayUrl: string,
  member: { username: string; password: string },
  pathname: string,
): Promise<DatedRecord[]> {
  const token = await memberToken(gatewayUrl, member);
  const response = await fetch(`${gatewayUrl}/api${pathname}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200)
    throw new Error(`${pathname}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as DatedRecord[];
}

/** The data requests the service charged while the work ran. */
export async function chargedDuring(
  service: ServiceUnderTest,
  work: () => Promise<unknown>,
): Promise<number> {
  const before = totalDataRequests(await service.stats());
  await work();
  return totalDataRequests(await service.stats()) - before;
}

/** The latest month among the record's final values ("" when it has none). */
export function latestDate(record: DatedRecord | undefined): string {
  return (
    [...(record?.series_final_values ?? [])]
      .map((point) => point.date)
      .sort()
      .pop() ?? ""
  );
}
