// What the runner reports about calls and data requests. The runner measures at the wire:
// the engine's fetch is wrapped, so every request counts (sign-in and token renewals,
// refresh, every pass), and a data call that had no answer when a phase ended (still in
// flight when the run timed out, or cut off) is reported as unconfirmed: the service
// charges a data request when it receives the call, so those may have been charged.
import type { EngineStats } from "../core/engine-api";
import type { FetchLike } from "../core/environment";
import type { Operation } from "../core/model";

export interface Usage {
  /** HTTP requests sent per operation (retries and token requests included). */
  http: Record<Operation, number>;
  /** Data requests the service confirmed with a 2xx answer (live Series Values / History codes). */
  dataRequests: number;
  /** Data requests sent without an answer: the service may have charged them. */
  dataRequestsUnconfirmed: number;
}

export interface UsageMeter {
  /** Totals since the meter started. Unconfirmed counts calls still in flight now. */
  read(): Usage;
}

export function emptyHttpCounts(): Record<Operation, number> {
  return { access_token: 0, series_info: 0, series_values: 0, series_hist: 0, data_limits: 0 };
}

/** What happened between two readings of a meter. */
export function usageBetween(before: Usage, after: Usage): Usage {
  const http = emptyHttpCounts();
  for (const operation of Object.keys(http) as Operation[]) {
    http[operation] = after.http[operation] - before.http[operation];
  }
  return {
    http,
    dataRequests: after.dataRequests - before.dataRequests,
    dataRequestsUnconfirmed: after.dataRequestsUnconfirmed - before.dataRequestsUnconfirmed,
  };
}

interface RequestKind {
  operation: Operation;
  /** Codes a live data call asks for (each a data request when answered); 0 otherwise. */
  codes: number;
}

/**
 * Which operation a request is, from its address: the token operation ends in
 * /access_token/v1; product operations end in /export/series, /export/series/<codes>,
 * /export/series_hist/<codes> or /data_limits (sandbox data calls charge nothing).
 */
export function requestKind(url: string): RequestKind | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (/\/access_token\/v1\/?$/.test(pathname)) return { operation: "access_token", codes: 0 };
  if (/\/v1\/data_limits\/?$/.test(pathname)) return { operation: "data_limits", codes: 0 };
  const match = /\/v1(\/sandbox)?\/export\/(series|series_hist)(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return undefined;
  const [, sandbox, resource, segment] = match;
  if (resource === "series" && segment === undefined) return { operation: "series_info", codes: 0 };
  if (segment === undefined) return undefined;
  const codes = sandbox ? 0 : decodeURIComponent(segment).split(",").length;
  return { operation: resource === "series_hist" ? "series_hist" : "series_values", codes };
}

/** A fetch that counts what passes through it, and the meter that reads the counts. */
export function meteredFetch(fetch: FetchLike): { fetch: FetchLike; meter: UsageMeter } {
  const http = emptyHttpCounts();
  let charged = 0;
  let unanswered = 0;
  let inFlight = 0;
  const counted: FetchLike = async (input, init) => {
    const kind = requestKind(input);
    if (!kind) return fetch(input, init);
    http[kind.operation] += 1;
    inFlight += kind.codes;
    try {
      const response = await fetch(input, init);
      if (response.ok) charged += kind.codes;
      return response;
    } catch (error) {
      unanswered += kind.codes;
      throw error;
    } finally {
      inFlight -= kind.codes;
    }
  };
  return {
    fetch: counted,
    meter: {
      read: () => ({
        http: { ...http },
        dataRequests: charged,
        dataRequestsUnconfirmed: unanswered + inFlight,
      }),
    },
  };
}

/** For an engine the runner did not build (programmatic use): the engine's own statistics. */
export function engineStatsMeter(stats: () => EngineStats): UsageMeter {
  return {
    read: () => {
      const { http, dataRequests } = stats();
      return { http: { ...emptyHttpCounts(), ...http }, dataRequests, dataRequestsUnconfirmed: 0 };
    },
  };
}
