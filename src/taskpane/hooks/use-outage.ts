import { useEffect, useState } from "react";
import type { ServiceReachability } from "../../core/engine-api";
import { unreachableText } from "../outage-text";
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
  const reachability = safeReachability(() => engine.serviceState().reachability);
  const [ended, setEnded] = useState<{ state: unknown; at: number; inOutage: boolean } | null>(null);
  useEffect(() => {
    if (state.status !== "done" && state.status !== "failed") return;
    const seen = safeReachability(() => engine.serviceState().reachability);
    setEnded({ state, at: Date.now(), inOutage: (seen?.unreachableSince ?? null) !== null });
  }, [engine, state]);
  const text = unreachableText(reachability, now);
  const refreshEndedInOutage = ended !== null && ended.state === state && ended.inOutage;
  const lastAnswerAt = reachability?.lastAnswerAt ?? null;
  const answeredSince = ended !== null && lastAnswerAt !== null && lastAnswerAt > ended.at;
  return {
    text,
    refreshEndedInOutage,
    refreshOutcomeOutdated: refreshEndedInOutage && (text !== null || answeredSince),
  };
}

/** serviceState reads the clock and settings; a failure there must not break the pane. */
function safeReachability(read: () => ServiceReachability | undefined): ServiceReachability | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
