// Shown above every tab: the outage notice while the engine's calls get no answer, the
// offer to refresh after a monthly release (or the automatic refresh when the user chose
// it), then the progress and the summary of a refresh-all, whether the pane or the ribbon
// button started it. A refresh that failed for the outage says so once, in the outage
// notice, and clears when the service answers again.
import { useEffect, useRef, useState } from "react";
import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  tokens,
} from "@fluentui/react-components";
import type { AuthStatus, ServiceReachability } from "../../core/engine-api";
import { useMetaVersion } from "../hooks/use-meta-version";
import { useNow } from "../hooks/use-now";
import { useRefreshState } from "../hooks/use-refresh-state";
import { unreachableText } from "../outage-text";
import { usePaneServices } from "../pane-services";
import { RefreshSummaryView } from "./RefreshSummaryView";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  summary: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalS,
  },
});

const PHASE_TEXT = { catalog: "Checking the catalog", data: "Fetching data", done: "Finishing" } as const;

export function RefreshBanner(props: { auth: AuthStatus }): React.JSX.Element | null {
  const styles = useStyles();
  const { engine, refresh } = usePaneServices();
  const state = useRefreshState();
  const metaVersion = useMetaVersion();
  const [due, setDue] = useState(false);
  const [dismissed, setDismissed] = useState<unknown>(null);
  // Automatic refresh runs once per pane session: a refresh that failed is not retried in a loop.
  const autoStarted = useRef(false);
  const signedIn = props.auth.signedIn;
  const now = useNow(30_000);
  const reachability = safeReachability(() => engine.serviceState().reachability);
  const outage = unreachableText(reachability, now);
  // When the last refresh ended and whether the service was unreachable then: such an
  // outcome is the outage's, told by the outage notice, and stale once the service answers.
  const [ended, setEnded] = useState<{ state: unknown; at: number; duringOutage: boolean } | null>(null);
  useEffect(() => {
    if (state.status !== "done" && state.status !== "failed") return;
    const seen = safeReachability(() => engine.serviceState().reachability);
    setEnded({ state, at: Date.now(), duringOutage: (seen?.unreachableSince ?? null) !== null });
  }, [engine, state]);
  const endedInOutage = ended !== null && ended.state === state && ended.duringOutage;
  const answeredSince =
    ended !== null &&
    (reachability?.lastAnswerAt ?? null) !== null &&
    (reachability?.lastAnswerAt ?? 0) > ended.at;
  const outcomeOutdated = endedInOutage && (outage !== null || answeredSince);

  useEffect(() => {
    if (!signedIn || state.status === "running") {
      setDue(false);
      return;
    }
    const isDue = safeRefreshDue(() => engine.refreshDue());
    if (isDue && !autoStarted.current && engine.getSettings().autoRefreshAfterRelease) {
      autoStarted.current = true;
      void refresh.run();
      return;
    }
    setDue(isDue);
  }, [engine, refresh, signedIn, metaVersion, state.status]);

  const offer = due && state.status !== "running" && (
    <MessageBar intent="info" data-testid="refresh-offer">
      <MessageBarBody>
        <MessageBarTitle>New monthly data</MessageBarTitle>A monthly release came out since the last refresh.
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" appearance="primary" onClick={() => void refresh.run()}>
          Refresh now
        </Button>
        <Button size="small" onClick={() => setDue(false)}>
          Later
        </Button>
      </MessageBarActions>
    </MessageBar>
  );

  let progress: React.JSX.Element | null = null;
  if (state.status === "running") {
    const { progress: step } = state;
    const fraction = step && step.total > 0 ? step.done / step.total : undefined;
    // Before the catalog check knows how many products it covers, there is no count to show.
    const counted =
      step && step.total > 0 ? `${PHASE_TEXT[step.phase]}: ${step.done} of ${step.total}` : null;
    progress = (
      <div className={styles.summary} role="status" data-testid="refresh-progress">
        <Caption1>{counted ?? (step ? `${PHASE_TEXT[step.phase]}…` : "Starting the refresh…")}</Caption1>
        <ProgressBar value={fraction} aria-label="Refresh progress" />
      </div>
    );
  } else if (outcomeOutdated) {
    progress = null;
  } else if (state.status === "done" && dismissed !== state.summary) {
    progress = (
      <div className={styles.summary} role="status">
        <RefreshSummaryView summary={state.summary} />
        <Button size="small" appearance="subtle" onClick={() => setDismissed(state.summary)}>
          Dismiss
        </Button>
      </div>
    );
  } else if (state.status === "failed" && dismissed !== state) {
    progress = (
      <MessageBar intent="error" role="alert" data-testid="refresh-failed">
        <MessageBarBody>Refresh failed: {state.message} Cached data is unchanged.</MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={() => setDismissed(state)}>
            Dismiss
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }

  const outageNotice = outage !== null && (
    <MessageBar intent="warning" data-testid="outage-notice">
      <MessageBarBody>
        {outage}
        {endedInOutage && " The last refresh could not reach it either; nothing was changed."}
      </MessageBarBody>
    </MessageBar>
  );

  if (!outageNotice && !offer && !progress) return null;
  return (
    <div className={styles.root}>
      {outageNotice}
      {offer}
      {progress}
    </div>
  );
}

/** serviceState reads the clock and settings; a failure there must not break the pane. */
function safeReachability(read: () => ServiceReachability | undefined): ServiceReachability | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** refreshDue reads the clock and settings; a failure there must not break the pane. */
function safeRefreshDue(read: () => boolean): boolean {
  try {
    return read();
  } catch {
    return false;
  }
}
