// Turns an answer with a non-2xx status into a PcdError whose kind decides retrying and how a
// cell shows it. The service documents neither status codes nor error bodies
// (docs/service.md §7), so the decision reads the status AND the body text, and the server's own
// words are kept (details.serverMessage and "The service said: ...") without tokens. Only an
// answer needs this, so it is not part of the functions runtime at start: it loads with the
// readers of answers (answer-readers.ts) and with the sign-in's token request.
import type { ServiceState } from "../engine-api";
import { PcdError, type PcdErrorDetails } from "../errors";
import type { Operation } from "../model";
import { announcesDowntime, formatLocalTime, OPERATION_LABELS } from "./classify";
import { datasetFromJson, datasetFromText, extractServerMessage } from "./error-body";
import { redactServiceText } from "./server-message";

export interface HttpFailure {
  status: number;
  bodyText: string;
  /** From the Retry-After header, already converted to ms (null when absent). */
  retryAfterMs: number | null;
  /** A team gateway passed on the service's refusal (service-status-header.ts): its status. */
  serviceStatus?: number | null;
}

export interface FailureContext {
  operation: Operation;
  now: number;
  /** The schedule's view at `now` (serviceState of schedule.ts). */
  serviceState: ServiceState;
  /** Texts that must never reach a message (the token, the password). */
  secrets?: readonly (string | null | undefined)[];
  /** Formats an instant for the user (default: the host's locale and time zone). */
  formatTime?: (epochMs: number) => string;
  /**
   * Signed in through a team gateway: in a window it answers from what it keeps, so a 503 is
   * the window only when it is the service's (its words say so, or the gateway says the service
   * answered it); any other is the gateway's own failure or its front end's, an outage.
   */
  throughGateway?: boolean;
}

const QUOTA_TEXT = /quota/i;
/**
 * A team gateway's refusal for the signed-in member's own budget ("Quota limit reached for
 * member <email>: until YYYY-MM-DD the gateway's budget of N data requests for dataset 'D' has K left;
 * ..."): the team's allowance is not exhausted, and the gateway's sentence says it all.
 */
const MEMBER_BUDGET_TEXT = /\bquota limit reached for member\b/i;
const PLAN_TEXT = /histor|\bplan\b|option|not included|subscription/i;

function said(serverMessage: string | null): string {
  return serverMessage ? ` The service said: ${serverMessage}` : "";
}

function unavailableError(
  failure: HttpFailure,
  context: FailureContext,
  serverMessage: string | null,
): PcdError {
  const format = context.formatTime ?? formatLocalTime;
  const state = context.serviceState;
  const details: PcdErrorDetails = { status: failure.status };
  if (serverMessage) details.serverMessage = serverMessage;
  if (failure.retryAfterMs !== null) details.retryAfterMs = failure.retryAfterMs;
  const fromHeader = failure.retryAfterMs !== null ? context.now + failure.retryAfterMs : null;
  const windowSaid =
    context.throughGateway !== true ||
    announcesDowntime(serverMessage) ||
    failure.serviceStatus === failure.status;
  if (!state.available && state.until !== null && windowSaid) {
    details.until = fromHeader ?? state.until;
    // A maintenance the service announced (downtime-policy.ts) ends when it said, not at 22:00 US
    // Central Time: told as its first announcement was (below).
    if (state.until === state.reachability?.maintenanceUntil) {
      details.downtime = "announced";
      return new PcdError(
        "unavailable",
        `The service announced a maintenance until about ${format(state.until)} (your time) (HTTP ` +
          `${failure.status} to ${OPERATION_LABELS[context.operation]}).${said(serverMessage)}`,
        details,
      );
    }
    details.downtime = state.reason === "release" ? "release" : "maintenance";
    const what = state.reason === "release" ? "for the monthly data release" : "for maintenance";
    const deadline = state.reason === "release" ? " at the latest" : "";
    // Whether cached data stands in is the cell's to say: this call's caller may have none.
    return new PcdError(
      "unavailable",
      `The service is down ${what} until 22:00 US Central Time${deadline} (${format(state.until)} your time).${said(serverMessage)}`,
      details,
    );
  }
  // Outside the calendar's windows, a maintenance only when the service says so itself.
  if (announcesDowntime(serverMessage)) {
    if (fromHeader !== null) details.until = fromHeader;
    details.downtime = "announced";
    const until = fromHeader !== null ? ` until about ${format(fromHeader)} (your time)` : "";
    return new PcdError(
      "unavailable",
      `The service announced a maintenance${until} (HTTP ${failure.status} to ` +
        `${OPERATION_LABELS[context.operation]}).${said(serverMessage)}`,
      details,
    );
  }
  // Otherwise a 503 is an outage of unknown cause (a Retry-After only
  // says when to ask again), never a maintenance or a release PCD would make up: a server
  // fault, like any other 5xx.
  return new PcdError(
    "server",
    `The service is failing: it answered HTTP ${failure.status} (service unavailable) to ` +
      `${OPERATION_LABELS[context.operation]}.${said(serverMessage)}`,
    details,
  );
}

/** The PcdError for an HTTP answer with a non-2xx status. */
export function classifyHttpFailure(failure: HttpFailure, context: FailureContext): PcdError {
  const { status, bodyText } = failure;
  const operation = OPERATION_LABELS[context.operation];
  const serverMessage = extractServerMessage(bodyText, context.secrets);
  const text = serverMessage ?? "";
  const details: PcdErrorDetails = { status };
  if (serverMessage) details.serverMessage = serverMessage;
  if (failure.retryAfterMs !== null) details.retryAfterMs = failure.retryAfterMs;
  const http = `(HTTP ${status})`;

  if (status === 401) {
    return new PcdError(
      "auth",
      `The service refused the access token for ${operation} ${http}: sign in again.${said(serverMessage)}`,
      details,
    );
  }
  if (QUOTA_TEXT.test(text)) {
    // The JSON field is the service's raw text: it is normalised and redacted like the message.
    const named = datasetFromJson(bodyText) ?? datasetFromText(text);
    const dataset = named === null ? null : redactServiceText(named, context.secrets);
    if (dataset) details.dataset = dataset;
    if (serverMessage !== null && MEMBER_BUDGET_TEXT.test(serverMessage)) {
      details.memberBudget = true;
      return new PcdError("quota", serverMessage, details);
    }
    const which = dataset ? ` for dataset "${dataset}"` : "";
    return new PcdError(
      "quota",
      `Quota limit reached${which}: ${operation} was refused ${http}.${said(serverMessage)}`,
      details,
    );
  }
  // Through a team gateway a 403 that is not the service's (no pcd-service-status saying so) is
  // the gateway refusing the member (blocked there): not the plan's, which would take History
  // off for the whole session.
  if (status === 403 && context.throughGateway === true && failure.serviceStatus !== status) {
    return new PcdError(
      "auth",
      `Your team's gateway refused ${operation} ${http}.${serverMessage ? ` It said: ${serverMessage}` : ""}`,
      details,
    );
  }
  // A refused History call is the plan's Data Automation Option (docs/service.md §8.2 rule 5).
  if (status === 403 && (PLAN_TEXT.test(text) || context.operation === "series_hist")) {
    return new PcdError(
      "plan",
      `Your plan does not include ${operation} ${http}.${said(serverMessage)}`,
      details,
    );
  }
  if (status === 429) {
    return new PcdError(
      "rate",
      `The service is limiting the request rate for ${operation} ${http}; try again shortly.${said(serverMessage)}`,
      details,
    );
  }
  if (status === 503) return unavailableError(failure, context, serverMessage);
  if (status === 404) {
    return new PcdError(
      "not_found",
      `The service found nothing at the ${operation} address ${http}; check the service address and product paths in the settings.${said(serverMessage)}`,
      details,
    );
  }
  if (status >= 400 && status < 500) {
    return new PcdError(
      "bad_request",
      `The service rejected the ${operation} call ${http}.${said(serverMessage)}`,
      details,
    );
  }
  if (status === 504) {
    // A gateway's or relay's answer (a team gateway, the add-in's relay, a front end) that got
    // no answer from the service in time: the service may have answered, and charged, after. As
    // a timeout, a data call is not sent again at once, and its codes count as perhaps charged.
    return new PcdError(
      "timeout",
      `${operation} got no answer in time: a gateway or relay on the way to the service answered HTTP 504 (the service may have charged the call).${said(serverMessage)}`,
      details,
    );
  }
  if (status >= 500) {
    return new PcdError(
      "server",
      `The service is failing: it answered HTTP ${status} to ${operation}.${said(serverMessage)}`,
      details,
    );
  }
  return new PcdError(
    "protocol",
    `Unexpected answer to ${operation} ${http}.${said(serverMessage)}`,
    details,
  );
}
