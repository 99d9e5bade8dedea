// What the engine's own calls say about the service, as opposed to what the calendar
// says (schedule.ts): a service that is stopped, unreachable or in an unannounced
// maintenance shows here from the first failed call, and the next answer clears it.
import type { ServiceReachability } from "../engine-api";
import type { PcdError } from "../errors";

export class ReachabilityTracker {
  private state: ServiceReachability = {
    unreachableSince: null,
    reason: null,
    maintenanceUntil: null,
    lastAnswerAt: null,
  };
  private readonly listeners = new Set<() => void>();

  current(): ServiceReachability {
    return { ...this.state };
  }

  /** Fires when the service becomes unreachable, in maintenance, or reachable again. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * An HTTP answer came back. 2xx-4xx: the service is there (a refusal is still an
   * answer). 503 saying until when: a maintenance with that end. Other 5xx (and a 503
   * without an end): it is there but failing, which a person experiences as not reachable.
   */
  answered(now: number, status: number, error?: PcdError): void {
    if (status === 503 && error && error.details.until !== undefined) {
      this.update({
        unreachableSince: null,
        reason: error.message,
        maintenanceUntil: error.details.until,
        lastAnswerAt: this.state.lastAnswerAt,
      });
      return;
    }
    if (status >= 500 && error) {
      this.failed(now, error);
      return;
    }
    this.update({ unreachableSince: null, reason: null, maintenanceUntil: null, lastAnswerAt: now });
  }

  /** No answer at all (refused connection, DNS, timeout) or a 5xx: unreachable since the first. */
  failed(now: number, error: PcdError): void {
    this.update({
      unreachableSince: this.state.unreachableSince ?? now,
      reason: error.message,
      maintenanceUntil: null,
      lastAnswerAt: this.state.lastAnswerAt,
    });
  }

  private update(next: ServiceReachability): void {
    const before = this.state;
    this.state = next;
    const changed =
      before.unreachableSince !== next.unreachableSince ||
      before.maintenanceUntil !== next.maintenanceUntil ||
      (before.reason === null) !== (next.reason === null);
    if (!changed) return;
    for (const listener of this.listeners) listener();
  }
}
