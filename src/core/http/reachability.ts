// What the engine's own calls say about the service, as opposed to what the calendar
// says (schedule.ts): a service that is stopped, unreachable or in an unannounced
// maintenance shows here from the first failed call, and the next answer clears it.
import type { ServiceReachability } from "../engine-api";
import type { FetchLike } from "../environment";
import { PcdError } from "../errors";
import { announcesDowntime } from "./classify";

export class ReachabilityTracker {
  private state: ServiceReachability = {
    unreachableSince: null,
    reason: null,
    maintenanceUntil: null,
    lastAnswerAt: null,
    failingStatus: null,
  };
  private readonly listeners = new Set<() => void>();

  current(): ServiceReachability {
    return { ...this.state };
  }

  /** Fires when the service becomes unreachable, failing, in maintenance, or reachable again. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * An HTTP answer came back. 2xx-4xx: the service is there (a refusal is still an
   * answer). A 503 that says it is a maintenance (or the release), with an end: a
   * maintenance the service announced. Any other 5xx, a bare 503 with a Retry-After
   * included: the service is failing, for a cause it did not say (an outage, never a
   * maintenance PCD would make up).
   */
  answered(now: number, status: number, error?: PcdError): void {
    if (
      status === 503 &&
      error &&
      error.details.until !== undefined &&
      announcesDowntime(error.details.serverMessage)
    ) {
      this.update({
        unreachableSince: null,
        reason: error.message,
        maintenanceUntil: error.details.until,
        lastAnswerAt: this.state.lastAnswerAt,
        failingStatus: null,
      });
      return;
    }
    if (status >= 500 && error) {
      this.update({
        unreachableSince: this.state.unreachableSince ?? now,
        reason: error.message,
        maintenanceUntil: null,
        lastAnswerAt: this.state.lastAnswerAt,
        failingStatus: status,
        failingInWindow: error.kind === "unavailable",
      });
      return;
    }
    this.update({
      unreachableSince: null,
      reason: null,
      maintenanceUntil: null,
      lastAnswerAt: now,
      failingStatus: null,
    });
  }

  /** No answer at all (refused connection, DNS, timeout): unreachable since the first. */
  failed(now: number, error: PcdError): void {
    this.update({
      unreachableSince: this.state.unreachableSince ?? now,
      reason: error.message,
      maintenanceUntil: null,
      lastAnswerAt: this.state.lastAnswerAt,
      failingStatus: null,
    });
  }

  private update(next: ServiceReachability): void {
    const before = this.state;
    this.state = next;
    const changed =
      before.unreachableSince !== next.unreachableSince ||
      before.maintenanceUntil !== next.maintenanceUntil ||
      (before.reason === null) !== (next.reason === null) ||
      (before.failingStatus === null) !== (next.failingStatus === null) ||
      // The service's downtime passed on by a team gateway, or the gateway's own failure: Status differs.
      (before.failingInWindow === true) !== (next.failingInWindow === true);
    if (!changed) return;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The token service's fetch, with its failures told to the tracker: a renewal is often the
 * call that meets an outage first (the data call never leaves), and Status must not stay
 * "available" then. Its successes are not told: the token service answering says nothing
 * of the data service, and the next data call's answer ends the outage anyway.
 */
export function observeTokenFailures(
  fetch: FetchLike,
  tracker: ReachabilityTracker,
  now: () => number,
): FetchLike {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      tracker.failed(now(), new PcdError("network", "The token service could not be reached."));
      throw error;
    }
    if (response.status >= 500) {
      tracker.answered(
        now(),
        response.status,
        new PcdError("server", `The token service answered HTTP ${response.status}.`, {
          status: response.status,
        }),
      );
    }
    return response;
  };
}
