// Usage tab's refresh section: what a refresh-all would cost (before it runs), the
// "Refresh all" button, the choice to refresh by itself after a monthly release and the
// choice to open PCD with this workbook.
// A refresh this button started shows its progress and summary right under it.
import { useEffect, useRef, useState } from "react";
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Switch,
  tokens,
} from "@fluentui/react-components";
import { useLoad } from "../hooks/use-load";
import { PREVIEW_CATALOG_MAX_AGE_MS } from "../../core/refresh";
import { useMetaVersion } from "../hooks/use-meta-version";
import { useNow } from "../hooks/use-now";
import { useRefreshState } from "../hooks/use-refresh-state";
import { useTickAt } from "../hooks/use-tick-at";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";
import { useRefreshOrigin } from "../refresh-origin";
import { OpenWithWorkbookSetting } from "./OpenWithWorkbookSetting";
import { RefreshCost } from "./RefreshCost";
import { RefreshStatus } from "./RefreshStatus";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});

export function RefreshPanel(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const { origin, run } = useRefreshOrigin();
  const metaVersion = useMetaVersion();
  const state = useRefreshState();
  const running = state.status === "running";
  // Re-planned every few minutes too: the engine reads a catalog again once it is that old.
  const minutes = Math.floor(useNow(60_000) / PREVIEW_CATALOG_MAX_AGE_MS);
  // Opening the tab, and Check again, are the user asking: the catalogs are read again then
  // (a release off the calendar shows only there). The re-plans that follow change events
  // or the clock do not read them sooner than the engine's bounds allow.
  const recheckAsked = useRef(true);
  const [rechecks, setRechecks] = useState(0);
  // Only a check the user asked for is shown as checking (re-plans on change events are quiet).
  const [rechecking, setRechecking] = useState(false);
  // Re-planned when the downtime the plan shows ends, so that "No refresh can run" goes then.
  const [closedUntil, setClosedUntil] = useState<number | undefined>(undefined);
  const downtimeEnded = useTickAt(closedUntil);
  const plan = useLoad(() => {
    const recheck = recheckAsked.current;
    recheckAsked.current = false;
    return engine.planRefresh({ recheck });
  }, [engine, metaVersion, state.status, minutes, rechecks, downtimeEnded]);
  useEffect(() => setClosedUntil(plan.value?.closed?.until), [plan.value]);
  useEffect(() => {
    if (plan.status !== "loading") setRechecking(false);
  }, [plan.status]);
  const [auto, setAuto] = useState(() => engine.getSettings().autoRefreshAfterRelease);
  const [settingError, setSettingError] = useState<string | null>(null);

  const changeAuto = async (value: boolean): Promise<void> => {
    setSettingError(null);
    try {
      const settings = await engine.updateSettings({ autoRefreshAfterRelease: value });
      setAuto(settings.autoRefreshAfterRelease);
    } catch (error) {
      setSettingError(describeError(error));
    }
  };

  return (
    <section className={styles.root} aria-label="Refresh this workbook">
      <Subtitle2 as="h2">Refresh this workbook</Subtitle2>
      {plan.value && (
        <RefreshCost
          plan={plan.value}
          checking={rechecking}
          onRecheck={() => {
            recheckAsked.current = true;
            setRechecking(true);
            setRechecks((value) => value + 1);
          }}
        />
      )}
      {plan.status === "loading" && !plan.value && <Spinner size="tiny" label="Working out the cost…" />}
      {plan.status === "failed" && (
        <MessageBar layout="multiline" intent="warning">
          <MessageBarBody>The cost of a refresh is not known: {plan.message}</MessageBarBody>
        </MessageBar>
      )}
      <Button appearance="primary" disabled={running} onClick={() => run("usage")}>
        {running ? "Refreshing…" : "Refresh all"}
      </Button>
      {origin === "usage" && <RefreshStatus />}
      <Switch
        checked={auto}
        onChange={(_event, data) => void changeAuto(data.checked)}
        label="Refresh by itself after a monthly release"
      />
      {settingError !== null && (
        <MessageBar layout="multiline" intent="error" role="alert">
          <MessageBarBody>{settingError}</MessageBarBody>
        </MessageBar>
      )}
      <OpenWithWorkbookSetting />
    </section>
  );
}
