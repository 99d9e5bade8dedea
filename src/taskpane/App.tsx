// The task pane shell (docs/taskpane.md): a header that always shows who is signed in
// and a SANDBOX badge that cannot be missed, a Help link, the refresh banner, and four
// tabs. Before sign-in the first tab opens with the first-run panel; after sign-in the
// focus moves to the Series tab's content.
import { useEffect, useRef, useState } from "react";
import {
  Button,
  Caption1,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  Title3,
  tokens,
} from "@fluentui/react-components";
import { AccountStatus } from "./components/AccountStatus";
import { FirstRunPanel, HELP_PAGE } from "./components/FirstRunPanel";
import { RefreshBanner } from "./components/RefreshBanner";
import { SandboxBadge } from "./components/SandboxBadge";
import { SeriesPicker } from "./components/SeriesPicker";
import { SignInPanel } from "./components/SignInPanel";
import { StatusPanel } from "./components/StatusPanel";
import { UsagePanel } from "./components/UsagePanel";
import { useAuthStatus } from "./hooks/use-auth-status";
import { useMetaVersion } from "./hooks/use-meta-version";
import { useNow } from "./hooks/use-now";
import { describeError } from "./messages";
import { serviceConditionText } from "./outage-text";
import { serviceCondition } from "../core/service-condition";
import { usePaneServices } from "./pane-services";
import { RefreshOriginProvider } from "./refresh-origin";

type Area = "account" | "series" | "usage" | "status";

/** What each tab's content is called (its tab's words, for screen readers). */
function areaLabel(area: Area, signedIn: boolean): string {
  if (area === "account") return signedIn ? "Account" : "Sign in";
  return area === "series" ? "Series" : area === "usage" ? "Usage" : "Status";
}

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    minWidth: "280px",
    maxWidth: "100%",
    boxSizing: "border-box",
  },
  header: { display: "flex", alignItems: "center", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  help: { marginLeft: "auto" },
  user: {
    color: tokens.colorNeutralForeground3,
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
    minWidth: 0,
  },
  tabs: { flexWrap: "wrap" },
  content: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalM,
    outlineStyle: "none",
  },
});

export function App(): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const [ready, setReady] = useState<{ status: "loading" | "ready" } | { status: "failed"; message: string }>(
    {
      status: "loading",
    },
  );
  const [attempt, setAttempt] = useState(0);
  const auth = useAuthStatus();
  const [area, setArea] = useState<Area>(() => (engine.authStatus().signedIn ? "series" : "account"));
  const content = useRef<HTMLElement>(null);
  const [focusContent, setFocusContent] = useState(false);

  // After sign-in the Series tab replaces the form: focus goes to it, not to the page body.
  useEffect(() => {
    if (!focusContent || area !== "series") return;
    content.current?.focus();
    setFocusContent(false);
  }, [focusContent, area]);

  useEffect(() => {
    let current = true;
    setReady({ status: "loading" });
    engine.ready().then(
      () => current && setReady({ status: "ready" }),
      (error: unknown) => current && setReady({ status: "failed", message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [engine, attempt]);

  return (
    <main className={styles.root}>
      <header className={styles.header}>
        <Title3 as="h1">PCD</Title3>
        {auth.signedIn && auth.environment === "sandbox" && <SandboxBadge />}
        {auth.signedIn && (
          <Caption1 className={styles.user} data-testid="header-user" title={auth.username ?? undefined}>
            {auth.username}
          </Caption1>
        )}
        <Link className={styles.help} href={HELP_PAGE} target="_blank" rel="noopener" data-testid="help-link">
          Help
        </Link>
      </header>
      {ready.status === "loading" && <Spinner size="small" label="Starting PCD…" />}
      {ready.status === "failed" && (
        <MessageBar layout="multiline" intent="error" role="alert">
          <MessageBarBody>
            PCD could not start: {ready.message}{" "}
            <Button size="small" onClick={() => setAttempt((value) => value + 1)}>
              Try again
            </Button>
          </MessageBarBody>
        </MessageBar>
      )}
      {ready.status === "ready" && (
        <RefreshOriginProvider>
          <ServiceNotice />
          <RefreshBanner auth={auth} />
          <TabList
            className={styles.tabs}
            selectedValue={area}
            onTabSelect={(_event, data) => setArea(data.value as Area)}
            size="small"
            aria-label="PCD areas"
          >
            <Tab value="account">{auth.signedIn ? "Account" : "Sign in"}</Tab>
            <Tab value="series">Series</Tab>
            <Tab value="usage">Usage</Tab>
            <Tab value="status">Status</Tab>
          </TabList>
          <section
            aria-label={areaLabel(area, auth.signedIn)}
            ref={content}
            tabIndex={-1}
            className={styles.content}
            data-testid="pane-content"
          >
            {area === "account" &&
              (auth.signedIn ? (
                <AccountStatus status={auth} />
              ) : (
                <>
                  <FirstRunPanel />
                  <SignInPanel
                    onSignedIn={() => {
                      setArea("series");
                      setFocusContent(true);
                    }}
                  />
                </>
              ))}
            {area === "series" &&
              (auth.signedIn ? <SeriesPicker /> : <SignInFirst onSignIn={() => setArea("account")} />)}
            {area === "usage" &&
              (auth.signedIn ? <UsagePanel /> : <SignInFirst onSignIn={() => setArea("account")} />)}
            {area === "status" && <StatusPanel />}
          </section>
        </RefreshOriginProvider>
      )}
    </main>
  );
}

function SignInFirst(props: { onSignIn: () => void }): React.JSX.Element {
  return (
    <MessageBar layout="multiline" intent="info">
      <MessageBarBody>
        Sign in to PCD first.{" "}
        <Button size="small" appearance="primary" onClick={props.onSignIn}>
          Sign in
        </Button>
      </MessageBarBody>
    </MessageBar>
  );
}

/** A maintenance window or release-day downtime is shown on every tab, with its end. */
function ServiceNotice(): React.JSX.Element | null {
  const { engine } = usePaneServices();
  const now = useNow(30_000);
  useMetaVersion();
  let state;
  try {
    state = engine.serviceState();
  } catch {
    return null;
  }
  // The Status tab's sentence, from the same condition: the notice is the downtime's alone
  // (an outage has the outage notice, a signed-out pane the Account tab).
  const said = serviceConditionText(serviceCondition(state), now);
  if (said.notice !== "downtime") return null;
  return (
    <MessageBar layout="multiline" intent="warning" data-testid="service-notice">
      <MessageBarBody>{said.text}</MessageBarBody>
    </MessageBar>
  );
}
