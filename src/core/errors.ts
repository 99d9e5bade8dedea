// One error type for the whole engine. `kind` decides how a cell shows it
// (input -> #VALUE!, everything else -> #N/A) and whether a call is retried;
// the message is written for the user and must name the cause.

export type PcdErrorKind =
  | "input" // the user's arguments are wrong (#VALUE!)
  | "not_signed_in" // no credentials in memory
  | "auth" // the service refused the credentials or token
  | "quota" // an allowance or quota is exhausted (dataset says which)
  | "rate" // 429 after the retries ran out
  | "unavailable" // maintenance or release-day downtime (until says when)
  | "plan" // the plan does not include the operation (e.g. no History)
  | "bad_request" // the service rejected the call (4xx other than the above)
  | "not_found" // unknown code, or a code missing from a response
  | "server" // 5xx after the retries ran out
  | "network" // the request never got an HTTP answer
  | "timeout" // the per-call timeout elapsed
  | "protocol" // the answer was not what the spec describes (malformed JSON, wrong shape)
  | "storage"; // the local cache failed

export interface PcdErrorDetails {
  /** HTTP status, when there was one. */
  status?: number;
  /** The service's own message text, kept so the user can read it. */
  serverMessage?: string;
  /** Quota errors: the dataset whose allowance is exhausted. */
  dataset?: string;
  /**
   * Quota errors: a team gateway refused because the signed-in member's own budget for the
   * dataset does not cover the request; the team's allowance is not exhausted.
   */
  memberBudget?: true;
  /** Unavailable: when the service is expected back (epoch ms). */
  until?: number;
  /**
   * Unavailable: which downtime, so that every part of the pane names the same one: the
   * calendar's release day or maintenance window, or a maintenance the service announced.
   */
  downtime?: "release" | "maintenance" | "announced";
  /** Rate / unavailable: how long the service asked us to wait (ms). */
  retryAfterMs?: number;
  /**
   * A data call the service answered with success, so it charged the call's codes, whose
   * answer PCD could not use (unreadable, wrong shape, the code left out).
   */
  charged?: true;
  /**
   * A call that never left (its access token or the code that reads its answer could not be
   * had first): a network failure, yet nothing the service could have charged.
   */
  notSent?: true;
  /** Network errors: the short technical cause when known (e.g. "connection refused"). */
  reason?: string;
  /** Input errors: the argument at fault (e.g. "currency") and what is allowed. */
  argument?: string;
  allowed?: readonly string[];
  /**
   * A currency or unit refused as a name the reference tables do not know: the engine may
   * add a "did you mean" to the message (src/core/option-suggestion.ts).
   */
  unknownName?: { typed: string; shown: string; code: string };
}

export class PcdError extends Error {
  readonly kind: PcdErrorKind;
  readonly details: PcdErrorDetails;

  constructor(kind: PcdErrorKind, message: string, details: PcdErrorDetails = {}) {
    super(message);
    this.name = "PcdError";
    this.kind = kind;
    this.details = details;
  }
}

export function isPcdError(value: unknown): value is PcdError {
  return value instanceof PcdError;
}

/** The message of anything thrown (an Error's message, else its text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Anything thrown, as a PcdError: PcdErrors pass through; anything else is a failure the
 * engine did not expect, shown as one (a cell must still end with a message).
 */
export function toPcdError(error: unknown): PcdError {
  if (isPcdError(error)) return error;
  return new PcdError("protocol", `Unexpected failure: ${errorMessage(error)}`);
}

/** The failure of a call that never left (`details.notSent`): nothing can have been charged. */
export function notSentFailure(error: PcdError): PcdError {
  if (error.details.notSent === true) return error;
  return new PcdError(error.kind, error.message, { ...error.details, notSent: true });
}

/** The failure of a data call the service answered, and so charged (`details.charged`). */
export function chargedFailure(error: PcdError): PcdError {
  if (error.details.charged === true) return error;
  return new PcdError(error.kind, error.message, { ...error.details, charged: true });
}
