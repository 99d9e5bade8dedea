// Whether the last refresh-all's outcome is still true to show: judged by when it ended and
// the service's condition then (the refresh runner keeps both with the outcome), against the
// condition now. Every view judges the same way however late it mounts: a tab opened after a
// downtime ended does not bring back the failure the downtime caused.
import type { ServiceCondition, ServiceConditionKind } from "../core/service-condition";
import type { RefreshState } from "../host/refresh-runner";

export interface RefreshOutcomeNow {
  /** The last refresh-all ended while the service could not be reached: the outage notice tells it. */
  refreshEndedInOutage: boolean;
  /** ...and so its own summary or failure is not shown (during the outage, or once it answers again). */
  refreshOutcomeOutdated: boolean;
  /**
   * The last refresh-all's failure belongs to a state that has passed: the service's
   * condition changed since (a downtime ended, the service answered again) or a new day
   * began. Its message would no longer be true, so it is not shown.
   */
  refreshFailureOutdated: boolean;
}

export function isOutage(kind: ServiceConditionKind | undefined): boolean {
  return kind === "failing" || kind === "unreachable";
}

export function refreshOutcomeNow(
  state: RefreshState,
  condition: ServiceCondition | undefined,
  now: number,
): RefreshOutcomeNow {
  if (state.status !== "done" && state.status !== "failed") {
    return { refreshEndedInOutage: false, refreshOutcomeOutdated: false, refreshFailureOutdated: false };
  }
  const refreshEndedInOutage = isOutage(state.conditionAtEnd);
  const lastAnswerAt = condition?.kind === "up" ? condition.lastAnswerAt : null;
  const answeredSince = lastAnswerAt !== null && lastAnswerAt > state.endedAt;
  return {
    refreshEndedInOutage,
    refreshOutcomeOutdated: refreshEndedInOutage && (isOutage(condition?.kind) || answeredSince),
    refreshFailureOutdated:
      state.conditionAtEnd !== condition?.kind ||
      new Date(state.endedAt).toDateString() !== new Date(now).toDateString(),
  };
}
