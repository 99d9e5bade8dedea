// Status tab: through which team gateway data comes (when signed in through one), the
// service's state (maintenance, release day, until when), the local cache (size, where it
// lives, last refresh) and clearing it.
import { useState } from "react";
import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Subtitle2,
  tokens,
} from "@fluentui/react-components";
import type { AuthStatus, CacheInfo, ServiceState } from "../../core/engine-api";
import { isOrgSession } from "../../host/org-sign-in/org-session";
import { useLoad } from "../hooks/use-load";
import { useMetaVersion } from "../hooks/use-meta-version";
import { useNow } from "../hooks/use-now";
import { useRefreshState } from "../hooks/use-refresh-state";
import { serviceCondition } from "../../core/service-condition";
import {
  describeError,
  formatBytes,
  formatDateTime,
  nextMaintenanceText,
  nextReleaseText,
} from "../messages";
import { serviceConditionText } from "../outage-text";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  // Addresses and error texts have no spaces to break at: they wrap anywhere in a 320 px pane.
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalM,
    overflowWrap: "anywhere",
    minWidth: 0,
  },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
});

export function ServiceStateView(props: {
  state: ServiceState;
  now: number;
  signedIn?: boolean;
}): React.JSX.Element {
  const { state, now } = props;
  // One condition (src/core/service-condition.ts): what the last calls saw counts over the
  // calendar's "open" (the service may be stopped or failing), a downtime over both.
  const said = serviceConditionText(serviceCondition(state, props.signedIn ?? true), now);
  return (
    <>
      <MessageBar layout="multiline" intent={said.intent} data-testid="service-state">
        <MessageBarBody>
          {said.text}
          {said.lastError !== null ? (
            <Caption1 as="p" style={{ display: "block" }}>
              Last error: {said.lastError}
            </Caption1>
          ) : null}
        </MessageBarBody>
      </MessageBar>
      <Caption1 data-testid="next-release">{nextReleaseText(state.nextRelease)}</Caption1>
      <Caption1 data-testid="next-maintenance">{nextMaintenanceText(state.nextMaintenance)}</Caption1>
    </>
  );
}

/**
 * Signed in through a team gateway: data comes through it (at the service address setting),
 * and the gateway knows this user as the member its token names; signed in through the
 * organisation's account (Microsoft Entra ID), that account's preferred_username.
 */
export function GatewayView(props: {
  member: string;
  address: string;
  organisation?: boolean;
}): React.JSX.Element {
  return (
    <>
      <Body1 data-testid="gateway">
        Data comes through your organisation&apos;s gateway at{" "}
        <strong data-testid="gateway-address">{props.address || "no address set"}</strong>.
      </Body1>
      <Body1>
        Signed in to it as member <strong data-testid="gateway-member">{props.member}</strong>
        {props.organisation === true && " through your organisation's account"}.
      </Body1>
    </>
  );
}

export function CacheView(props: { cache: CacheInfo }): React.JSX.Element {
  const { cache } = props;
  return (
    <>
      <Body1 data-testid="cache-size">
        {cache.entries} series cached ({formatBytes(cache.bytes)}),{" "}
        {cache.persistent ? "kept on this computer" : "in memory only (lost when Excel closes)"}.
      </Body1>
      {cache.fallbackReason !== null && <Caption1>Why in memory: {cache.fallbackReason}</Caption1>}
      <Caption1>
        Last refresh: {cache.lastRefresh === null ? "never" : formatDateTime(cache.lastRefresh)}
      </Caption1>
    </>
  );
}

export function StatusPanel(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const now = useNow(30_000);
  const metaVersion = useMetaVersion();
  const refreshState = useRefreshState();
  const [cleared, setCleared] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ intent: "success" | "error"; text: string } | null>(null);
  const cache = useLoad(() => engine.cacheInfo(), [engine, metaVersion, cleared, refreshState.status]);
  const service = safeServiceState(() => engine.serviceState());
  // Read at each render: the pane re-renders on every auth change (App follows the engine's).
  const auth = safeRead((): AuthStatus | null => engine.authStatus(), null);
  const gatewayAddress = auth?.gateway ? safeRead(() => engine.getSettings().baseUrl, "") : "";

  const clear = async (): Promise<void> => {
    setConfirming(false);
    try {
      await engine.clearCache();
      setMessage({
        intent: "success",
        text: "The cache is cleared: the next calculation fetches data again.",
      });
    } catch (error) {
      setMessage({ intent: "error", text: `Could not clear the cache: ${describeError(error)}` });
    } finally {
      setCleared((value) => value + 1);
    }
  };

  return (
    <div className={styles.root}>
      {auth?.gateway && (
        <section className={styles.section} aria-label="Gateway">
          <Subtitle2 as="h2">Gateway</Subtitle2>
          <GatewayView
            member={auth.gateway.member}
            address={gatewayAddress}
            organisation={isOrgSession(auth)}
          />
        </section>
      )}
      <section className={styles.section} aria-label="Service">
        <Subtitle2 as="h2">Service</Subtitle2>
        {service instanceof Error ? (
          <Caption1>Service state unknown: {service.message}</Caption1>
        ) : (
          <ServiceStateView state={service} now={now} signedIn={auth?.signedIn ?? true} />
        )}
      </section>
      <section className={styles.section} aria-label="Cache">
        <Subtitle2 as="h2">Cache</Subtitle2>
        {cache.value && <CacheView cache={cache.value} />}
        {cache.status === "failed" && <Caption1>Cache state unknown: {cache.message}</Caption1>}
        <div className={styles.actions}>
          {confirming ? (
            <>
              <Button appearance="primary" onClick={() => void clear()}>
                Yes, clear the cache
              </Button>
              <Button onClick={() => setConfirming(false)}>Keep it</Button>
            </>
          ) : (
            <Button onClick={() => setConfirming(true)}>Clear cache…</Button>
          )}
        </div>
        {confirming && (
          <Caption1>
            Cells keep their values until they recalculate; then each series costs a data request again.
          </Caption1>
        )}
        {message && (
          <MessageBar
            layout="multiline"
            intent={message.intent}
            role={message.intent === "error" ? "alert" : "status"}
          >
            <MessageBarBody>{message.text}</MessageBarBody>
          </MessageBar>
        )}
      </section>
    </div>
  );
}

function safeServiceState(read: () => ServiceState): ServiceState | Error {
  try {
    return read();
  } catch (error) {
    return new Error(describeError(error));
  }
}

function safeRead<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
