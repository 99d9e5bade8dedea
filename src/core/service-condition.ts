// The one answer to "what is the service doing now?", read by the Status tab, the pane's
// banners and the cells' downtime errors, so no two of them can say different things. It
// combines the calendar (maintenance windows, release day: schedule.ts), what the service
// announced (a 503 that says it is in maintenance, with an end), what the engine's own calls
// observed (5xx answers, no answer at all) and whether there is a session to call with.
import type { ServiceState } from "./engine-api";

export type ServiceCondition =
  /** Calls are answered (or nothing says otherwise). */
  | { kind: "up"; lastAnswerAt: number | null }
  /**
   * A maintenance window of the calendar, or one the service announced (503 with an end).
   * `throughGateway`: a team gateway answers meanwhile, with what it keeps.
   */
  | { kind: "maintenance"; until: number; announced: boolean; throughGateway: boolean }
  /** Release day: closed from 06:00 US Central Time until the new data is published (22:00 at the latest). */
  | { kind: "release"; until: number; throughGateway: boolean }
  /**
   * The service answers, but with server errors (5xx): an outage of unknown cause. `retrying`:
   * signed in, so cells and the outage probe call again; signed out, nothing calls until a sign-in.
   * `throughGateway`: the calls go to a team gateway, so the 5xx is the gateway's answer (its own
   * failure, or the service's passed on), not necessarily the service's.
   */
  | {
      kind: "failing";
      since: number;
      status: number;
      reason: string | null;
      retrying: boolean;
      throughGateway?: true;
    }
  /**
   * No answer at all (network, refused connection, timeout); `retrying` as for "failing".
   * `throughGateway`: it is the team gateway that does not answer; the service may be up.
   */
  | { kind: "unreachable"; since: number; reason: string | null; retrying: boolean; throughGateway?: true }
  /** No session: PCD makes no call until someone signs in. */
  | { kind: "signed_out" };

export type ServiceConditionKind = ServiceCondition["kind"];

/**
 * The service's condition from the engine's state. A downtime the calendar or the service
 * announced comes first (a 503 then is expected, not an outage), unless a team gateway that
 * would have served it meanwhile does not answer, or fails with an error of its own; what the calls observed
 * comes next (the calendar may say "open" while the service is stopped, and a sign-in that got
 * no answer is told as such); then the session. Pass `signedIn` wherever it is known: an
 * outage seen without a session is not being retried.
 */
export function serviceCondition(state: ServiceState, signedIn = true): ServiceCondition {
  const reachability = state.reachability;
  // Through a team gateway calls go in a downtime too: a gateway that does not answer at all, or
  // answers with a server error that is not the window's (the service's 503 passed on is), is
  // what the user needs to hear then, not the window it would have covered.
  const gatewayFailing =
    state.throughGateway === true &&
    reachability !== undefined &&
    reachability.unreachableSince !== null &&
    reachability.failingInWindow !== true;
  if (!state.available && !gatewayFailing) {
    const until = state.until ?? state.nextMaintenance;
    const throughGateway = state.throughGateway === true;
    if (state.reason === "release") return { kind: "release", until, throughGateway };
    const announced = state.until !== null && state.until === reachability?.maintenanceUntil;
    return { kind: "maintenance", until, announced, throughGateway };
  }
  if (reachability && reachability.unreachableSince !== null) {
    const status = reachability.failingStatus ?? null;
    const since = reachability.unreachableSince;
    // Through a team gateway the calls never reach the service itself (sandbox ones neither):
    // what failed is said so.
    const via =
      state.throughGateway === true || state.callsToGateway === true ? { throughGateway: true as const } : {};
    if (status !== null) {
      return { kind: "failing", since, status, reason: reachability.reason, retrying: signedIn, ...via };
    }
    return { kind: "unreachable", since, reason: reachability.reason, retrying: signedIn, ...via };
  }
  if (!signedIn) return { kind: "signed_out" };
  return { kind: "up", lastAnswerAt: reachability?.lastAnswerAt ?? null };
}

/** Whether calls can be expected to succeed (the condition is "up"). */
export function serviceIsUp(condition: ServiceCondition): boolean {
  return condition.kind === "up";
}
