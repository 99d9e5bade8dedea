import { useEffect, useState } from "react";
import type { ServiceState } from "../../core/engine-api";
import { serviceCondition, type ServiceCondition } from "../../core/service-condition";
import { serviceConditionText } from "../outage-text";
import { usePaneServices } from "../pane-services";
import { useMetaVersion } from "./use-meta-version";
import { useNow } from "./use-now";
import { useRefreshState } from "./use-refresh-state";

export interface Outage {
  /** The outage sentence while the engine's calls get no answer, else null. */
  text: string | null;
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

/**
 * The engine's reachability for the pane (re-read on every engine change), and whether the
 * last refresh-all's outcome belongs to an outage: one notice says it, and it clears when
 * the service answers again.
 */
export function useOutage(): Outage {
  const { engine } = usePaneServices();
  const state = useRefreshState();
  const now = useNow(30_000);
  useMetaVersion();
  const condition = safeCondition(() => engine.serviceState());
  const [ended, setEnded] = useState<{
    state: unknown;
    at: number;
    inOutage: boolean;
    condition: ServiceCondition["kind"] | undefined;
  } | null>(null);
  useEffect(() => {
    if (state.status !== "done" && state.status !== "failed") return;
    const seen = safeCondition(() => engine.serviceState());
    setEnded({ state, at: Date.now(), inOutage: isOutage(seen), condition: seen?.kind });
  }, [engine, state]);
  // The same condition as the Status tab: a downtime is the downtime notice's to tell.
  const text = condition && isOutage(condition) ? serviceConditionText(condition, now).text : null;
  const refreshEndedInOutage = ended !== null && ended.state === state && ended.inOutage;
  const lastAnswerAt = condition?.kind === "up" ? condition.lastAnswerAt : null;
  const answeredSince = ended !== null && lastAnswerAt !== null && lastAnswerAt > ended.at;
  const endedNow = ended !== null && ended.state === state;
  const refreshFailureOutdated =
    endedNow &&
    (ended.condition !== condition?.kind ||
      new Date(ended.at).toDateString() !== new Date(now).toDateString());
  return {
    text,
    refreshEndedInOutage,
    refreshOutcomeOutdated: refreshEndedInOutage && (text !== null || answeredSince),
    refreshFailureOutdated,
  };
}

function isOutage(condition: ServiceCondition | undefined): boolean {
  return condition?.kind === "failing" || condition?.kind === "unreachable";
}

/** serviceState reads the clock and settings; a failure there must not break the pane. */
function safeCondition(read: () => ServiceState): ServiceCondition | undefined {
  try {
    return serviceCondition(read());
  } catch {
    return undefined;
  }
}
