// Usage tab: the allowance bars (reloaded whenever the engine's limits change, e.g. after
// data calls), a warning per product whose limits could not be read, and the refresh
// section with its cost.
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import { useState } from "react";
import { useLoad } from "../hooks/use-load";
import { useMetaVersion } from "../hooks/use-meta-version";
import { usePaneServices } from "../pane-services";
import { PRODUCT_LABELS } from "../series-filters";
import { RefreshPanel } from "./RefreshPanel";
import { UsageBars } from "./UsageBars";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { display: "flex", alignItems: "center", justifyContent: "space-between" },
});

export function UsagePanel(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const metaVersion = useMetaVersion();
  const [reloads, setReloads] = useState(0);
  const limits = useLoad(() => engine.limitsReport(), [engine, metaVersion, reloads]);
  return (
    <div className={styles.root}>
      <section aria-label="Data limits">
        <div className={styles.heading}>
          <Subtitle2 as="h2">Data requests left this month</Subtitle2>
          <Button size="small" appearance="subtle" onClick={() => setReloads((value) => value + 1)}>
            Reload
          </Button>
        </div>
        {limits.value && <UsageBars rows={limits.value.rows} />}
        {/* A product without bars would read as "not subscribed": say it is unknown, and why. */}
        {limits.value?.unavailable.map(({ product, message }) => (
          <MessageBar key={product} intent="warning" data-testid="limits-unavailable" data-product={product}>
            <MessageBarBody>
              Data limits of {PRODUCT_LABELS[product]} could not be read: {message}
            </MessageBarBody>
          </MessageBar>
        ))}
        {limits.status === "loading" && !limits.value && <Spinner size="tiny" label="Reading your limits…" />}
        {limits.status === "failed" && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>Could not read your data limits: {limits.message}</MessageBarBody>
          </MessageBar>
        )}
      </section>
      <RefreshPanel />
    </div>
  );
}
