// The signed-in state: who, which environment, how long the token lasts, and sign out
// (optionally clearing the cached data of this computer too).
import { useState } from "react";
import {
  Body1,
  Button,
  Caption1,
  Checkbox,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from "@fluentui/react-components";
import type { AuthStatus } from "../../core/engine-api";
import { isOrgSession } from "../../host/org-sign-in/org-session";
import { useNow } from "../hooks/use-now";
import { describeError, tokenLifetimeText } from "../messages";
import { usePaneServices } from "../pane-services";
import { SandboxBadge } from "./SandboxBadge";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  row: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center", flexWrap: "wrap" },
});

export function AccountStatus(props: { status: AuthStatus }): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const now = useNow(30_000);
  const [clearCache, setClearCache] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { status } = props;

  const signOut = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await engine.signOut({ clearCache });
    } catch (signOutError) {
      setError(describeError(signOutError));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.root} aria-label="Account">
      <div className={styles.row}>
        <Body1>
          Signed in as <strong data-testid="account-user">{status.username ?? "unknown user"}</strong>
          {isOrgSession(status) && " through your organisation's account"}
        </Body1>
      </div>
      <div className={styles.row}>
        <Body1>Environment: {status.environment === "sandbox" ? "Sandbox" : "Live"}</Body1>
        {status.environment === "sandbox" && <SandboxBadge />}
      </div>
      <Caption1 data-testid="token-lifetime">{tokenLifetimeText(status.tokenExpiresAt, now)}</Caption1>
      <Checkbox
        checked={clearCache}
        onChange={(_event, data) => setClearCache(data.checked === true)}
        label="Also clear the cached data on this computer"
      />
      <div className={styles.row}>
        <Button onClick={() => void signOut()} disabled={busy}>
          Sign out
        </Button>
      </div>
      {error !== null && (
        <MessageBar layout="multiline" intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
