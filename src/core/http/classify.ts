// Turns a failed HTTP exchange into a PcdError whose kind decides retrying and how a cell shows
// it: here a call that got no answer (no network, a timeout), which must be told offline too;
// an answer with a non-2xx status is http-failure.ts, loaded with the other readers of answers.
import { PcdError } from "../errors";
import type { Operation } from "../model";
import { redactServiceText } from "./server-message";

export const OPERATION_LABELS: Record<Operation, string> = {
  access_token: "Access Token",
  series_info: "Series Info",
  series_values: "Series Values",
  series_hist: "Series Values History",
  data_limits: "Data Limits",
};

export function formatLocalTime(epochMs: number): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(epochMs),
  );
}

/** The service's own words name a maintenance or the release downtime (docs/service.md §8.3). */
const DOWNTIME_WORDS = /maintenance|monthly release|downtime/i;

/** Whether the service's message announces a downtime (rather than a fault of unknown cause). */
export function announcesDowntime(serverMessage: string | null | undefined): boolean {
  return typeof serverMessage === "string" && DOWNTIME_WORDS.test(serverMessage);
}

/** The PcdError for a fetch that got no HTTP answer (not a caller's cancellation). */
export function classifyFetchRejection(
  error: unknown,
  context: {
    operation: Operation;
    url: string;
    timedOutAfterMs: number | null;
    secrets?: readonly (string | null | undefined)[];
  },
): PcdError {
  const operation = OPERATION_LABELS[context.operation];
  if (context.timedOutAfterMs !== null) {
    return new PcdError(
      "timeout",
      `${operation} got no answer within ${Math.round(context.timedOutAfterMs / 1000)} s (the per-call timeout in the settings).`,
    );
  }
  let origin = context.url;
  try {
    origin = new URL(context.url).origin;
  } catch {
    // Keep the text as given.
  }
  const said = networkCause(error);
  const cause = said === null ? null : redactServiceText(said, context.secrets ?? []);
  return new PcdError(
    "network",
    `The service at ${origin} could not be reached for ${operation}${cause ? ` (${cause})` : ""}. Check the network, or the service address under Advanced in the task pane.`,
    cause ? { reason: cause } : {},
  );
}

/** Node's fetch errors carry a system code under `cause`; browsers say only "failed". */
const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "connection closed by the service",
  CERT_HAS_EXPIRED: "the service's certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the service's certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the service's certificate is not trusted",
};

/** The runtimes' generic texts, which say nothing the sentence does not already say. */
const GENERIC_FETCH_MESSAGES =
  /^(fetch failed|failed to fetch|load failed|networkerror when attempting to fetch resource\.?)$/i;

function networkCause(error: unknown): string | null {
  const nested = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof nested?.code === "string" ? nested.code : undefined;
  if (code) return Object.hasOwn(NETWORK_CAUSES, code) ? (NETWORK_CAUSES[code] ?? code) : code;
  const text = error instanceof Error ? error.message : String(error);
  return GENERIC_FETCH_MESSAGES.test(text.trim()) ? null : text;
}

/** Whether a failure is worth another attempt (429, 5xx except 501, network, timeout). */
export function isRetryable(error: PcdError): boolean {
  switch (error.kind) {
    case "rate":
    case "network":
    case "timeout":
      return true;
    case "server":
    case "unavailable":
      return error.details.status !== 501;
    default:
      return false;
  }
}
