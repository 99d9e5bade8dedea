// The sign-in dialog's page (dialog.html), opened by the pane with Office's dialog API
// where nested app authentication is not available. First visit (?state=…): make a PKCE
// verifier, keep it and the state in this dialog's session storage, and go to the issuer's
// authorize page. Back from it (?code=…&state=…): check the state, redeem the code with the
// verifier, and send the token to the pane (messageParent). The pane checks the message again.
import { dialogMessageText, DIALOG_MESSAGE_TYPE, type DialogMessage } from "./dialog-message";
import { discoverIssuer } from "./discovery";
import {
  authorizeUrl,
  codeChallenge,
  randomToken,
  readAuthorizeReturn,
  readTokenAnswer,
  tokenRequestBody,
} from "./pkce";
import { buildTimeOrgSignIn, type OrgSignInSettings } from "./settings";

const PENDING_KEY = "pcd-org-sign-in";

interface Pending {
  state: string;
  verifier: string;
}

function show(text: string): void {
  const status = document.getElementById("status");
  if (status !== null) status.textContent = text;
}

function send(message: DialogMessage): void {
  Office.context.ui.messageParent(dialogMessageText(message));
}

function readPending(): Pending | null {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? "null");
    if (typeof saved !== "object" || saved === null) return null;
    const { state, verifier } = saved as Record<string, unknown>;
    return typeof state === "string" && typeof verifier === "string" ? { state, verifier } : null;
  } catch {
    return null;
  }
}

const fetchHere = (input: string, init?: RequestInit): Promise<Response> => fetch(input, init);
const redirectUri = (): string => `${window.location.origin}${window.location.pathname}`;

async function start(settings: OrgSignInSettings, state: string): Promise<void> {
  const verifier = randomToken((bytes) => crypto.getRandomValues(bytes));
  const challenge = await codeChallenge(verifier, (data) => crypto.subtle.digest("SHA-256", data));
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ state, verifier } satisfies Pending));
  const { authorizationEndpoint } = await discoverIssuer(fetchHere, settings.issuer);
  window.location.assign(
    authorizeUrl({
      authorizationEndpoint,
      clientId: settings.clientId,
      redirectUri: redirectUri(),
      scope: settings.scope,
      state,
      challenge,
    }),
  );
}

async function finish(settings: OrgSignInSettings, pending: Pending): Promise<void> {
  sessionStorage.removeItem(PENDING_KEY);
  const returned = readAuthorizeReturn(window.location.search, pending.state);
  if ("refused" in returned) {
    send({ type: DIALOG_MESSAGE_TYPE, state: pending.state, failure: returned.refused });
    return;
  }
  const { tokenEndpoint } = await discoverIssuer(fetchHere, settings.issuer);
  const response = await fetchHere(tokenEndpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: tokenRequestBody(
      { code: returned.code, verifier: pending.verifier, redirectUri: redirectUri() },
      settings.clientId,
      settings.scope,
    ).toString(),
  });
  const answer = readTokenAnswer(await response.json());
  send(
    "refused" in answer
      ? {
          type: DIALOG_MESSAGE_TYPE,
          state: pending.state,
          failure: `the issuer refused the code (${answer.refused})`,
        }
      : { type: DIALOG_MESSAGE_TYPE, state: pending.state, token: answer },
  );
}

async function run(): Promise<void> {
  const settings = buildTimeOrgSignIn();
  const params = new URLSearchParams(window.location.search);
  const pending = readPending();
  const returning = params.has("code") || params.has("error");
  if (settings === null) {
    show("This build of PCD has no organisation sign-in.");
    return;
  }
  if (returning && pending !== null) {
    show("Finishing sign-in…");
    await finish(settings, pending);
    show("Signed in: this window closes by itself.");
    return;
  }
  const state = params.get("state");
  if (state === null || state === "") {
    show("Open this page from the PCD pane: Sign in with your organisation.");
    return;
  }
  show("Going to your organisation's sign-in page…");
  try {
    await start(settings, state);
  } catch (error) {
    send({
      type: DIALOG_MESSAGE_TYPE,
      state,
      failure: `the issuer could not be reached (${error instanceof Error ? error.message : "no answer"})`,
    });
  }
}

void Office.onReady(() => {
  run().catch((error: unknown) =>
    show(`Sign-in failed: ${error instanceof Error ? error.message : String(error)}`),
  );
});
