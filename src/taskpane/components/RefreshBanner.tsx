// Shown above every tab: the outage notice while the engine's calls get no answer (a
// refresh that failed in the outage is told there, once), the offer to refresh after a
// monthly release (or the automatic refresh when the user chose it), then the progress and
// the summary of a refresh-all the ribbon, the offer or the automatic refresh started (the
// Usage tab's button shows its own under itself).
import { useEffect, useRef, useState } from "react";
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  tokens,
} from "@fluentui/react-components";
import type { AuthStatus } from "../../core/engine-api";
import { useMetaVersion } from "../hooks/use-meta-version";
import { useOutage } from "../hooks/use-outage";
import { useRefreshState } from "../hooks/use-refresh-state";
import { usePaneServices } from "../pane-services";
import { useRefreshOrigin } from "../refresh-origin";
import { RefreshStatus } from "./RefreshStatus";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
});

export function RefreshBanner(props: { auth: AuthStatus }): React.JSX.Element | null {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const state = useRefreshState();
  const metaVersion = useMetaVersion();
  const { origin, run } = useRefreshOrigin();
  const [due, setDue] = useState(false);
  // Automatic refresh runs once per pane session: a refresh that failed is not retried in a loop.
  const autoStarted = useRef(false);
  const signedIn = props.auth.signedIn;
  const outage = useOutage();

  useEffect(() => {
    if (!signedIn || state.status === "running") {
      setDue(false);
      return;
    }
    const isDue = safeRefreshDue(() => engine.refreshDue());
    if (isDue && !autoStarted.current && engine.getSettings().autoRefreshAfterRelease) {
      autoStarted.current = true;
      run("banner");
      return;
    }
    setDue(isDue);
  }, [engine, run, signedIn, metaVersion, state.status]);

  const offer = due && state.status !== "running" && (
    <MessageBar layout="multiline" intent="info" data-testid="refresh-offer">
      <MessageBarBody>
        <MessageBarTitle>New monthly data</MessageBarTitle>A monthly release came out since the last refresh.
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" appearance="primary" onClick={() => run("banner")}>
          Refresh now
        </Button>
        <Button size="small" onClick={() => setDue(false)}>
          Later
        </Button>
      </MessageBarActions>
    </MessageBar>
  );

  const progress = origin === "banner" && state.status !== "idle" ? <RefreshStatus /> : null;

  const outageNotice = outage.text !== null && (
    <MessageBar layout="multiline" intent="warning" data-testid="outage-notice">
      <MessageBarBody>
        {outage.text}
        {outage.refreshEndedInOutage && " The last refresh could not reach it either; nothing was changed."}
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

/** refreshDue reads the clock and settings; a failure there must not break the pane. */
function safeRefreshDue(read: () => boolean): boolean {
  try {
    return read();
  } catch {
    return false;
  }
}
