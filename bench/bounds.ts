// Lower bounds that no client can beat, computed from the workbook and the service's
// Series Info alone (never from the engine's batcher): docs/decisions.md D28.
//   HTTP data calls: per group of product + data type + operation, the codes must be
//     split into calls of at most 40 codes, and one call never holds the same code twice
//     (two currencies of one series go in two calls), so a group needs
//     max(ceil(requests / 40), most requests of one code) calls.
//   Data requests: what the cells need (bench/needs.ts): per key, one Series Values request
//     when its cells read only the 13-month window or forecasts, one History request when
//     they read only older months, both when they read both (on the real service History
//     ends before the window; by the description's letter History alone covers both).
//   Wall time: each operation allows 10 calls per second, plus one call's latency.
import type { CatalogSeries, DataType, Product } from "./catalog";
import { olderMonthsHeld, partsFor, WHOLE } from "./needs";
import type { BenchRequestKey } from "./request-keys";

/** real: History ends before the window (the default); spec: History reaches the latest month. */
export type ServiceShape = "real" | "spec";

export const OPERATIONS = [
  "access_token",
  "series_info",
  "series_values",
  "series_hist",
  "data_limits",
] as const;
export type Operation = (typeof OPERATIONS)[number];
export type CallCounts = Record<Operation, number>;
export type DataOperation = "series_values" | "series_hist";

export const MAX_CODES_PER_CALL = 40;
export const CALLS_PER_SECOND = 10;

export function zeroCalls(): CallCounts {
  return { access_token: 0, series_info: 0, series_values: 0, series_hist: 0, data_limits: 0 };
}

/** The fewest calls that carry these codes (one entry per request; a code may repeat). */
export function minimumCalls(codes: readonly string[]): number {
  if (codes.length === 0) return 0;
  const perCode = new Map<string, number>();
  for (const code of codes) perCode.set(code, (perCode.get(code) ?? 0) + 1);
  return Math.max(Math.ceil(codes.length / MAX_CODES_PER_CALL), ...perCode.values());
}

export interface GroupBound {
  product: Product;
  dataType: DataType;
  operation: DataOperation;
  requests: number;
  calls: number;
}

export interface Bound {
  calls: CallCounts;
  dataRequests: number;
  groups: GroupBound[];
}

export interface PlannedRequest {
  key: BenchRequestKey;
  operation: DataOperation;
}

/** Groups the requests by product + data type + operation and sums each group's minimum. */
export function dataCallBound(requests: readonly PlannedRequest[]): Bound {
  const groups = new Map<string, { group: GroupBound; codes: string[] }>();
  for (const { key, operation } of requests) {
    const name = `${key.product}|${key.dataType}|${operation}`;
    let entry = groups.get(name);
    if (entry === undefined) {
      entry = {
        group: { product: key.product, dataType: key.dataType, operation, requests: 0, calls: 0 },
        codes: [],
      };
      groups.set(name, entry);
    }
    entry.group.requests += 1;
    entry.codes.push(key.code);
  }
  const calls = zeroCalls();
  const result: GroupBound[] = [];
  for (const { group, codes } of groups.values()) {
    group.calls = minimumCalls(codes);
    calls[group.operation] += group.calls;
    result.push(group);
  }
  return { calls, dataRequests: requests.length, groups: result };
}

export interface SessionCalls {
  /** Sign-ins the scenario needs (1 for a new process, 0 when the token is still valid). */
  signIns: number;
  /** Products whose Series Info the scenario must read (0 when the cached catalog will do). */
  catalogs: number;
}

function withSession(bound: Bound, session: SessionCalls): Bound {
  return {
    ...bound,
    calls: { ...bound.calls, access_token: session.signIns, series_info: session.catalogs },
  };
}

/** The parts a key's cells need, as calls: History, Series Values or both. */
function requestsOf(key: BenchRequestKey, lastFinal: string, shape: ServiceShape): PlannedRequest[] {
  const parts = partsFor(key.reads ?? WHOLE, lastFinal);
  const planned: PlannedRequest[] = [];
  if (parts.history) planned.push({ key, operation: "series_hist" });
  // History by the description's letter also holds the window and the forecasts.
  if (parts.window && !(parts.history && shape === "spec")) planned.push({ key, operation: "series_values" });
  return planned;
}

/** A cold workbook: every distinct key is new and buys the parts its cells read. */
export function coldBound(
  keys: readonly BenchRequestKey[],
  session: SessionCalls,
  shape: ServiceShape = "real",
): Bound {
  return withSession(
    dataCallBound(keys.flatMap((key) => requestsOf(key, key.lastAvailableFinal ?? "", shape))),
    session,
  );
}

/** A warm recalculation: the cache answers everything. */
export function warmBound(session: SessionCalls): Bound {
  return withSession(dataCallBound([]), session);
}

/** Whether a release changed a series: new month, new update date or revised history. */
export function seriesChanged(before: CatalogSeries, after: CatalogSeries): boolean {
  return (
    before.lastAvailableFinal !== after.lastAvailableFinal ||
    before.updatedAt !== after.updatedAt ||
    after.seriesHistChanged
  );
}

/**
 * Month start: only keys whose series changed need data, and only the parts their cells
 * read. A revised history needs History again (for cells reading older months) and the
 * window; a series one month further on needs Series Values (its 13 months cover the gap);
 * cells that read only older months need nothing new unless History was revised.
 */
export function releaseBound(
  keys: readonly BenchRequestKey[],
  before: ReadonlyMap<string, CatalogSeries>,
  after: ReadonlyMap<string, CatalogSeries>,
  session: SessionCalls,
  shape: ServiceShape = "real",
): Bound {
  const planned: PlannedRequest[] = [];
  for (const key of keys) {
    const old = before.get(key.code);
    const now = after.get(key.code);
    if (old === undefined || now === undefined) {
      throw new Error(`Series ${key.code} is missing from the Series Info before or after the release`);
    }
    if (!seriesChanged(old, now)) continue;
    const reads = key.reads ?? WHOLE;
    const parts = partsFor(reads, now.lastAvailableFinal);
    const boughtHistory = partsFor(reads, old.lastAvailableFinal).history;
    const history =
      parts.history &&
      (now.seriesHistChanged || !olderMonthsHeld(reads, old.lastAvailableFinal, boughtHistory));
    if (history) planned.push({ key, operation: "series_hist" });
    if (parts.window && !(history && shape === "spec")) planned.push({ key, operation: "series_values" });
  }
  return withSession(dataCallBound(planned), session);
}

/** Distinct products among the codes a workbook names (their Series Info is needed). */
export function productsOf(codes: Iterable<string>, byCode: ReadonlyMap<string, CatalogSeries>): number {
  const products = new Set<Product>();
  for (const code of codes) {
    const series = byCode.get(code);
    if (series !== undefined) products.add(series.product);
  }
  return products.size;
}

/**
 * The rate limit's floor on wall time: operations are limited separately, so the busiest
 * operation's calls / 10 per second, plus the latency of one (the largest) call.
 */
export function rateLimitBoundMs(calls: CallCounts, oneCallLatencyMs: number): number {
  const busiest = Math.max(...OPERATIONS.map((operation) => calls[operation]));
  return (busiest / CALLS_PER_SECOND) * 1000 + oneCallLatencyMs;
}

/** Latency the emulator adds to a call of this many codes. */
export function callLatencyMs(latency: { baseMs: number; perCodeMs: number }, codes: number): number {
  return latency.baseMs + latency.perCodeMs * codes;
}

/** The largest data call a bound needs (for the one latency of the rate-limit bound). */
export function largestCallCodes(bound: Bound): number {
  let largest = 0;
  for (const group of bound.groups) {
    if (group.calls > 0) largest = Math.max(largest, Math.ceil(group.requests / group.calls));
  }
  return largest;
}
