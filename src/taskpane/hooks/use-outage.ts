import { serviceCondition, type ServiceCondition } from "../../core/service-condition";
import { serviceConditionText } from "../outage-text";
import { isOutage, refreshOutcomeNow, type RefreshOutcomeNow } from "../refresh-outcome";
import { usePaneServices } from "../pane-services";
import { useMetaVersion } from "./use-meta-version";
import { useNow } from "./use-now";
import { useRefreshState } from "./use-refresh-state";

export interface Outage extends RefreshOutcomeNow {
  /** The outage sentence while the engine's calls get no answer, else null. */
  text: string | null;
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
  const condition = safeCondition(() =>
    serviceCondition(engine.serviceState(), engine.authStatus().signedIn),
  );
  // The same condition as the Status tab: a downtime is the downtime notice's to tell.
  const text = condition && isOutage(condition.kind) ? serviceConditionText(condition, now).text : null;
  return { text, ...refreshOutcomeNow(state, condition, now) };
}

/** serviceState reads the clock and settings; a failure there must not break the pane. */
function safeCondition(read: () => ServiceCondition): ServiceCondition | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
