// The benchmark's own small HTTP helpers against the service (emulator): a token, the
// Series Info of each product, and the emulator's admin controls and counters (the
// service's view of what a client spent).
import { PRODUCTS, parseSeriesInfo, type CatalogSeries } from "./catalog";
import { OPERATIONS, zeroCalls, type CallCounts } from "./bounds";

export interface ServiceAddress {
  baseUrl: string;
  authUrl: string;
  username: string;
  password: string;
}

async function json(response: Response, what: string): Promise<unknown> {
  const body = await response.text();
  if (!response.ok) throw new Error(`${what} failed with HTTP ${response.status}: ${body.slice(0, 300)}`);
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new Error(`${what} answered with text that is not JSON: ${body.slice(0, 120)}`);
  }
}

export async function accessToken(service: ServiceAddress): Promise<string> {
  const response = await fetch(`${service.authUrl}/access_token/v1`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: service.username, password: service.password }),
  });
  const body = await json(response, "Access Token");
  const token = (body as { access_token?: unknown }).access_token;
  if (typeof token !== "string") throw new Error("Access Token answered without an access_token");
  return token;
}

/** Series Info of every product, parsed by the benchmark's own reader. */
export async function readCatalog(service: ServiceAddress): Promise<CatalogSeries[]> {
  const token = await accessToken(service);
  const lists = await Promise.all(
    PRODUCTS.map(async (product) => {
      const response = await fetch(`${service.baseUrl}/${product}/v1/export/series`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const records = await json(response, `Series Info of ${product}`);
      if (!Array.isArray(records)) throw new Error(`Series Info of ${product} is not a JSON array`);
      return records.map((record: Readonly<Record<string, unknown>>) => parseSeriesInfo(product, record));
    }),
  );
  return lists.flat();
}

export interface ServiceCounters {
  calls: CallCounts;
  /** Data requests charged, all datasets together. */
  dataRequests: number;
}

export async function readCounters(baseUrl: string): Promise<ServiceCounters> {
  const body = (await json(await fetch(`${baseUrl}/__admin/stats`), "Admin stats")) as {
    calls?: Record<string, unknown>;
    dataRequests?: Record<string, unknown>;
  };
  const calls = zeroCalls();
  for (const operation of OPERATIONS) {
    const count = body.calls?.[operation];
    if (typeof count === "number") calls[operation] = count;
  }
  const dataRequests = Object.values(body.dataRequests ?? {}).reduce<number>(
    (sum, count) => sum + (typeof count === "number" ? count : 0),
    0,
  );
  return { calls, dataRequests };
}

/** What a client spent between two readings of the counters. */
export function countersBetween(before: ServiceCounters, after: ServiceCounters): ServiceCounters {
  const calls = zeroCalls();
  for (const operation of OPERATIONS) calls[operation] = after.calls[operation] - before.calls[operation];
  return { calls, dataRequests: after.dataRequests - before.dataRequests };
}

async function post(baseUrl: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  return json(response, `Admin ${path}`);
}

export async function resetCounters(baseUrl: string): Promise<void> {
  await post(baseUrl, "/__admin/reset", {});
}

export interface ReleaseOverrides {
  revise: string[];
  unchanged: string[];
}

/** Publishes the next month now, with the history revisions and held-back series given. */
export async function publishRelease(baseUrl: string, overrides: ReleaseOverrides): Promise<void> {
  await post(baseUrl, "/__admin/release", overrides);
}
