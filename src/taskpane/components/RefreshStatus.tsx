// A refresh-all's progress while it runs, then its summary (or why it failed), with
// Dismiss. Shown next to the control that started it: under the Usage tab's button, or in
// the banner for the ribbon, the release offer and the automatic refresh. A refresh that
// failed in an outage is told by the outage notice instead.
import { useState } from "react";
import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  tokens,
} from "@fluentui/react-components";
import { useOutage } from "../hooks/use-outage";
import { useRefreshState } from "../hooks/use-refresh-state";
import { RefreshSummaryView } from "./RefreshSummaryView";

const useStyles = makeStyles({
  box: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalS,
  },
});

const PHASE_TEXT = { catalog: "Checking the catalog", data: "Fetching data", done: "Finishing" } as const;

export function RefreshStatus(): React.JSX.Element | null {
  const styles = useStyles();
  const state = useRefreshState();
  const [dismissed, setDismissed] = useState<unknown>(null);
  const outage = useOutage();

  if (state.status === "running") {
    const { progress: step } = state;
    const fraction = step && step.total > 0 ? step.done / step.total : undefined;
    // Before the catalog check knows how many products it covers, there is no count to show.
    const counted =
      step && step.total > 0 ? `${PHASE_TEXT[step.phase]}: ${step.done} of ${step.total}` : null;
    return (
      <div className={styles.box} role="status" data-testid="refresh-progress">
        <Caption1>{counted ?? (step ? `${PHASE_TEXT[step.phase]}…` : "Starting the refresh…")}</Caption1>
        <ProgressBar value={fraction} aria-label="Refresh progress" />
      </div>
    );
  }
  // An outcome of the outage is told by the outage notice, and is stale once the service answers.
  if (outage.refreshOutcomeOutdated) return null;
  if (state.status === "done" && dismissed !== state.summary) {
    return (
      <div className={styles.box} role="status">
        <RefreshSummaryView summary={state.summary} />
        <Button size="small" appearance="subtle" onClick={() => setDismissed(state.summary)}>
          Dismiss
        </Button>
      </div>
    );
  }
  // A failure of a state that has passed (the downtime it met is over, another day) is not true any more.
  if (state.status === "failed" && dismissed !== state && !outage.refreshFailureOutdated) {
    return (
      <MessageBar layout="multiline" intent="error" role="alert" data-testid="refresh-failed">
        <MessageBarBody>Refresh failed: {state.message} Cached data is unchanged.</MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={() => setDismissed(state)}>
            Dismiss
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  return null;
}
