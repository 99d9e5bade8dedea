// Sign-in form: username, password, Live or Sandbox, and the service and token addresses
// under "Advanced". The password lives only in this component's state until the engine
// has it in memory; it is cleared after a successful sign-in and never stored or shown.
// A build without a service address (docs/deploy.md) opens Advanced and asks for it.
// A build with organisation sign-in (PCD_OIDC_*) offers "Sign in with your organisation"
// first; MSAL.js loads only when that button is clicked (src/host/org-sign-in/org-sign-in.ts).
import { useEffect, useId, useRef, useState } from "react";
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Button,
  Divider,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Spinner,
  tokens,
} from "@fluentui/react-components";
import type { AuthStatus, EngineSettings } from "../../core/engine-api";
import type { ServiceEnvironment } from "../../core/model";
import {
  noteOrgSignInEnded,
  onOrgSignInEnded,
  orgSignInEndedNotice,
} from "../../host/org-sign-in/ended-notice";
import { endOrgSession, startOrgSession } from "../../host/org-sign-in/org-session";
import { signInWithOrganisation as openOrgSignIn } from "../../host/org-sign-in/org-sign-in";
import { buildTimeOrgSignIn, type OrgSignInSettings } from "../../host/org-sign-in/settings";
import { describeError, signInErrorMessage } from "../messages";
import { usePaneServices } from "../pane-services";

const useStyles = makeStyles({
  form: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center" },
});

const MISSING_ADDRESS_MESSAGE =
  "PCD has no service address yet: enter it under Advanced (your IT department has it, see docs/deploy.md).";

export function SignInPanel(props: {
  onSignedIn?: (status: AuthStatus) => void;
  /** Organisation sign-in; by default this build's (none without PCD_OIDC_*). */
  orgSignIn?: OrgSignInSettings | null;
}): React.JSX.Element {
  const styles = useStyles();
  const { engine } = usePaneServices();
  const orgSignIn = props.orgSignIn === undefined ? buildTimeOrgSignIn() : props.orgSignIn;
  // Why the organisation sign-in ended on its own (a renewal that needs the user).
  const [orgEnded, setOrgEnded] = useState<string | null>(orgSignInEndedNotice);
  useEffect(() => onOrgSignInEnded(setOrgEnded), []);
  const initial = engine.getSettings();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [environment, setEnvironment] = useState<ServiceEnvironment>(initial.environment);
  const [baseUrl, setBaseUrl] = useState(initial.baseUrl);
  const [authUrl, setAuthUrl] = useState(initial.authUrl);
  // No address yet (a production build without PCD_SERVICE_URL, first sign-in).
  const needsAddress = initial.baseUrl === "";
  const [addressMissing, setAddressMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Empty fields get Fluent's validation messages (the form has noValidate: no browser bubble).
  const [missing, setMissing] = useState<{ username: boolean; password: boolean }>({
    username: false,
    password: false,
  });
  const errorId = useId();
  const errorBar = useRef<HTMLDivElement>(null);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  // A failure takes the focus, so a keyboard or screen reader user meets it at once.
  useEffect(() => {
    if (error !== null) errorBar.current?.focus();
  }, [error]);

  /** Saves the environment and addresses; null (the error shown) when they cannot be used. */
  const applySettings = async (): Promise<EngineSettings | null> => {
    if (baseUrl.trim() === "") {
      setAddressMissing(true);
      setError(MISSING_ADDRESS_MESSAGE);
      return null;
    }
    setAddressMissing(false);
    setBusy(true);
    setError(null);
    try {
      return await engine.updateSettings({
        environment,
        baseUrl: baseUrl.trim(),
        // The token address is most often the service address itself.
        authUrl: authUrl.trim() || baseUrl.trim(),
      });
    } catch (settingsError) {
      setBusy(false);
      setError(describeError(settingsError));
      return null;
    }
  };

  const signInWithOrganisation = async (organisation: OrgSignInSettings): Promise<void> => {
    setMissing({ username: false, password: false });
    if ((await applySettings()) === null) return;
    try {
      const status = await startOrgSession(engine, await openOrgSignIn(organisation));
      noteOrgSignInEnded(null);
      props.onSignedIn?.(status);
    } catch (signInError) {
      setError(describeError(signInError));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (): Promise<void> => {
    const empty = { username: username.trim() === "", password: password === "" };
    setMissing(empty);
    if (empty.username || empty.password) {
      (empty.username ? usernameInput : passwordInput).current?.focus();
      return;
    }
    const settings = await applySettings();
    if (settings === null) return;
    try {
      const status = await engine.signIn(username.trim(), password);
      // The password session replaces any organisation session (even for the same name).
      endOrgSession();
      noteOrgSignInEnded(null);
      setPassword("");
      props.onSignedIn?.(status);
    } catch (signInError) {
      setError(signInErrorMessage(signInError, settings.baseUrl));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={styles.form}
      aria-label="Sign in to PCD"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {orgEnded !== null && (
        <MessageBar layout="multiline" intent="warning" data-testid="org-sign-in-ended">
          <MessageBarBody>{orgEnded}</MessageBarBody>
        </MessageBar>
      )}
      {orgSignIn !== null && (
        <>
          <Button
            appearance="primary"
            type="button"
            disabled={busy}
            data-testid="org-sign-in"
            onClick={() => void signInWithOrganisation(orgSignIn)}
          >
            Sign in with your organisation
          </Button>
          <Divider>or with a PCD username and password</Divider>
        </>
      )}
      <Field
        label="Username"
        required
        validationState={missing.username ? "error" : "none"}
        validationMessage={
          missing.username ? "Enter your PCD username (usually your email address)." : undefined
        }
      >
        <Input
          name="username"
          ref={usernameInput}
          autoComplete="username"
          value={username}
          onChange={(_event, data) => setUsername(data.value)}
        />
      </Field>
      <Field
        label="Password"
        required
        validationState={missing.password ? "error" : "none"}
        validationMessage={missing.password ? "Enter your PCD password." : undefined}
      >
        <Input
          name="password"
          ref={passwordInput}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(_event, data) => setPassword(data.value)}
        />
      </Field>
      <Field label="Environment">
        <RadioGroup
          layout="horizontal"
          value={environment}
          onChange={(_event, data) => setEnvironment(data.value === "sandbox" ? "sandbox" : "live")}
        >
          <Radio value="live" label="Live" />
          <Radio value="sandbox" label="Sandbox (test data)" />
        </RadioGroup>
      </Field>
      <Accordion collapsible defaultOpenItems={needsAddress ? ["advanced"] : []}>
        <AccordionItem value="advanced">
          <AccordionHeader size="small">Advanced</AccordionHeader>
          <AccordionPanel>
            <Field
              label="Service address"
              required={needsAddress}
              hint="The PCD service base URL (https; http only for localhost)."
              validationMessage={addressMissing ? "Enter the service address." : undefined}
            >
              {/* Not the browser's own required check: the form says what is missing, and where. */}
              <Input
                name="baseUrl"
                value={baseUrl}
                required={false}
                aria-required={needsAddress}
                onChange={(_event, data) => setBaseUrl(data.value)}
              />
            </Field>
            <Field
              label="Token address"
              hint="Where the sign-in token is requested (empty: the service address)."
            >
              <Input name="authUrl" value={authUrl} onChange={(_event, data) => setAuthUrl(data.value)} />
            </Field>
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
      {error !== null && (
        <MessageBar
          layout="multiline"
          intent="error"
          id={errorId}
          role="alert"
          ref={errorBar}
          tabIndex={-1}
          data-testid="sign-in-error"
        >
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        <Button
          appearance={orgSignIn !== null ? "secondary" : "primary"}
          type="submit"
          disabled={busy}
          aria-describedby={error !== null ? errorId : undefined}
        >
          Sign in
        </Button>
        {busy && <Spinner size="tiny" label="Signing in…" />}
      </div>
    </form>
  );
}
