// Shown above every tab: the offer to refresh after a monthly release (or the automatic
// refresh when the user chose it), then the progress and the summary of a refresh-all,
// whether the pane or the ribbon button started it.
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
import type { AuthStatus } from "../../core/engine-api";
import { useMetaVersion } from "../hooks/use-meta-version";
import { useRefreshState } from "../hooks/use-refresh-state";
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
    progress = (
      <div className={styles.summary} role="status" data-testid="refresh-progress">
        <Caption1>
          {step ? `${PHASE_TEXT[step.phase]}: ${step.done} of ${step.total}` : "Starting the refresh…"}
        </Caption1>
        <ProgressBar value={fraction} aria-label="Refresh progress" />
      </div>
    );
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

  if (!offer && !progress) return null;
  return (
    <div className={styles.root}>
      {offer}
      {progress}
    </div>
  );
}

/** refreshDue reads the clock and settings; a failure there must not break the pane. */
function safeRefreshDue(read: () => boolean): boolean {
  try {
    return read();
  } catch {
    return false;
  }
}
