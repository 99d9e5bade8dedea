// Records the HTTP calls an engine sends (through a wrapped fetch): when, which operation,
// how many codes, how long. The figures come from the service's counters; this log is the
// evidence for explaining them (how full the calls were, what waited on what).
import type { FetchLike } from "../src/core/environment";
import type { Operation } from "./bounds";

export interface LoggedCall {
  operation: Operation | "other";
  product: string;
  codes: string[];
  startMs: number;
  endMs: number;
  status: number;
}

/** The operation, product and codes of a service URL (docs/service.md §4 paths). */
export function describeCall(url: string): Pick<LoggedCall, "operation" | "product" | "codes"> {
  const path = new URL(url).pathname;
  if (path.endsWith("/access_token/v1")) return { operation: "access_token", product: "", codes: [] };
  const match =
    /^\/([^/]+)\/v1\/(?:sandbox\/)?(export\/series_hist|export\/series|data_limits)(?:\/([^/]+))?$/.exec(
      path,
    );
  if (match === null) return { operation: "other", product: "", codes: [] };
  const [, product = "", kind, segment] = match;
  const codes =
    segment === undefined
      ? []
      : decodeURIComponent(segment)
          .split(",")
          .map((item) => item.split("&")[0] ?? "");
  if (kind === "data_limits") return { operation: "data_limits", product, codes: [] };
  if (kind === "export/series_hist") return { operation: "series_hist", product, codes };
  return { operation: segment === undefined ? "series_info" : "series_values", product, codes };
}

export class CallLog {
  readonly calls: LoggedCall[] = [];
  private readonly origin = performance.now();

  wrap(fetchImpl: FetchLike): FetchLike {
    return async (input, init) => {
      const startMs = performance.now() - this.origin;
      const response = await fetchImpl(input, init);
      this.calls.push({
        ...describeCall(input),
        startMs,
        endMs: performance.now() - this.origin,
        status: response.status,
      });
      return response;
    };
  }

  /** Milliseconds since the log started (the clock of startMs / endMs). */
  now(): number {
    return performance.now() - this.origin;
  }

  /** Calls logged since a mark (an index into calls). */
  since(mark: number): LoggedCall[] {
    return this.calls.slice(mark);
  }

  /** How full the data calls were and when they ran, relative to the step's start. */
  static summary(calls: readonly LoggedCall[], stepStartMs: number): string {
    const parts: string[] = [];
    const data = calls.filter(
      (call) => call.operation === "series_hist" || call.operation === "series_values",
    );
    // What the first data call waited for: the token, the catalogs and the allowances.
    const session = (["access_token", "series_info", "data_limits"] as const)
      .map((operation) => {
        const ends = calls.filter((call) => call.operation === operation).map((call) => call.endMs);
        return ends.length === 0
          ? ""
          : `${operation} answered at ${ends.map((end) => (end - stepStartMs).toFixed(0)).join("/")} ms`;
      })
      .filter((part) => part !== "");
    if (session.length > 0) parts.push(session.join(", "));
    const first = data[0];
    if (first !== undefined) {
      const lastEnd = Math.max(...data.map((call) => call.endMs));
      parts.push(
        `data calls from ${(first.startMs - stepStartMs).toFixed(0)} ms to ${(lastEnd - stepStartMs).toFixed(0)} ms after the start`,
      );
    }
    const refused = calls.filter((call) => call.status !== 200);
    if (refused.length > 0) {
      const statuses = [...new Set(refused.map((call) => call.status))].join(", ");
      parts.push(`${refused.length} calls answered with status ${statuses} (and were sent again)`);
    }
    for (const operation of ["series_hist", "series_values"] as const) {
      const sizes = calls.filter((call) => call.operation === operation).map((call) => call.codes.length);
      if (sizes.length > 0) parts.push(`${operation} codes per call: ${sizes.join(",")}`);
    }
    if (refused.length > 0) {
      // Were the refused calls sent too close together (the engine's spacing failed), or did
      // they bunch up on the way (the service saw them closer than they left)?
      for (const operation of ["series_hist", "series_values"] as const) {
        const span = tightestSpan(
          calls.filter((call) => call.operation === operation).map((call) => call.startMs),
          RATE_PER_SECOND + 1,
        );
        if (span !== null) {
          parts.push(
            `the closest ${RATE_PER_SECOND + 1} ${operation} calls left within ${span.toFixed(0)} ms of each other`,
          );
        }
      }
    }
    return parts.join("; ");
  }
}

const RATE_PER_SECOND = 10;

/** The shortest time in which `count` consecutive starts happened (null: fewer starts). */
export function tightestSpan(startsMs: readonly number[], count: number): number | null {
  const sorted = [...startsMs].sort((a, b) => a - b);
  let tightest: number | null = null;
  for (let i = 0; i + count - 1 < sorted.length; i++) {
    const span = (sorted[i + count - 1] ?? 0) - (sorted[i] ?? 0);
    if (tightest === null || span < tightest) tightest = span;
  }
  return tightest;
}
