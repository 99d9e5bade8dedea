// Turns a call that got no answer (no network, a timeout) into a PcdError whose kind decides
// retrying and how a cell shows it. Loaded with the other readers of answers (answer-readers.ts),
// before a call leaves, so it is at hand offline too: a call that could not load them was
// never sent.
import { PcdError } from "../errors";
import type { Operation } from "../model";
import { OPERATION_LABELS } from "./classify";
import { redactServiceText } from "./server-message";

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
