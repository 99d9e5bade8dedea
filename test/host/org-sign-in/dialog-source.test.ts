// Organisation sign-in through the Office dialog, with a fake dialog and a fake issuer: the
// pane takes the token only from the add-in's own origin and for its own state, says so
// when the dialog is closed, and renews with the refresh token, never with a window.
import { Auth, NOT_SIGNED_IN_MESSAGE } from "../../../src/core/auth";
import type { FetchLike } from "../../../src/core/environment";
import {
  DIALOG_CLOSED_BY_USER,
  signInWithDialog,
  type DialogHandlers,
} from "../../../src/host/org-sign-in/dialog-source";
import { noteOrgSignInEnded } from "../../../src/host/org-sign-in/ended-notice";
import { ORG_SIGN_IN_CANCELLED, ORG_SIGN_IN_ENDED } from "../../../src/host/org-sign-in/messages";
import { isOrgSession, startOrgSession } from "../../../src/host/org-sign-in/org-session";
import { FakeClock, QUIET_TIME, makeJwt, scriptedFetch, settingsWith } from "../../core/http/fake-fetch";

/** The engine's sign-in as the pane's organisation session sees it: the real Auth. */
const sessionEngine = (auth: Auth) => ({
  signIn: (source: Parameters<Auth["signIn"]>[0] & object) => auth.signIn(source),
  onAuthChange: (listener: Parameters<Auth["onChange"]>[0]) => auth.onChange(listener),
});

const ORIGIN = "https://addin.example.com";
const ISSUER = "https://login.example.com/tenant/v2.0";
const TOKEN_ENDPOINT = "https://login.example.com/tenant/oauth2/v2.0/token";
const STATE = "state-1";
const HOUR_S = 3600;

const accessToken = (name: string): string => makeJwt({ preferred_username: "ana@example.com", name });
const tokenMessage = (state: string, refreshToken: string | null = "refresh-1"): string =>
  JSON.stringify({
    type: "pcd-org-sign-in",
    state,
    token: { accessToken: accessToken("first"), expiresIn: HOUR_S, refreshToken },
  });

/** The issuer's discovery document and token endpoint, answering refreshes from a script. */
function fakeIssuer(refreshAnswers: unknown[]) {
  const bodies: URLSearchParams[] = [];
  const fetch: FetchLike = (input, init) => {
    if (input === `${ISSUER}/.well-known/openid-configuration`)
      return Promise.resolve(
        Response.json({ authorization_endpoint: `${ISSUER}/authorize`, token_endpoint: TOKEN_ENDPOINT }),
      );
    if (input === TOKEN_ENDPOINT) {
      bodies.push(new URLSearchParams(String(init?.body)));
      return Promise.resolve(Response.json(refreshAnswers.shift() ?? { error: "invalid_grant" }));
    }
    return Promise.reject(new Error(`unexpected ${input}`));
  };
  return { fetch, bodies };
}

function setup(refreshAnswers: unknown[] = []) {
  const clock = new FakeClock(QUIET_TIME);
  const issuer = fakeIssuer(refreshAnswers);
  const opened: string[] = [];
  let closed = 0;
  let handlers: DialogHandlers | null = null;
  const source = signInWithDialog({
    opener: {
      open: (url, given) => {
        opened.push(url);
        handlers = given;
        return Promise.resolve({ close: () => void closed++ });
      },
    },
    fetch: issuer.fetch,
    now: () => clock.now(),
    newState: () => STATE,
    origin: ORIGIN,
    dialogUrl: `${ORIGIN}/dialog.html`,
    settings: { issuer: ISSUER, clientId: "client-1", scope: "api://gw/access_as_user" },
  });
  const auth = new Auth({ fetch: scriptedFetch().fetch, clock, settings: () => settingsWith() });
  const dialog = async (): Promise<DialogHandlers> => {
    await Promise.resolve();
    if (handlers === null) throw new Error("the dialog did not open");
    return handlers;
  };
  return { clock, source, auth, opened, closed: () => closed, dialog, bodies: issuer.bodies };
}

afterEach(() => noteOrgSignInEnded(null));

test("opens the dialog page with a fresh state; a token from the add-in for that state signs in", async () => {
  const { source, auth, opened, closed, dialog } = setup();
  (await dialog()).message({ message: tokenMessage(STATE), origin: ORIGIN });
  const status = await startOrgSession(sessionEngine(auth), await source);
  expect(opened).toEqual([`${ORIGIN}/dialog.html?state=${STATE}`]);
  expect(closed()).toBe(1);
  expect(status).toMatchObject({
    signedIn: true,
    username: "ana@example.com",
    tokenExpiresAt: QUIET_TIME + HOUR_S * 1000,
  });
  expect(isOrgSession(status)).toBe(true);
});

test.each<[string, (handlers: DialogHandlers) => void, RegExp | string]>([
  [
    "the dialog closed by the user",
    (handlers) => handlers.ended(DIALOG_CLOSED_BY_USER),
    ORG_SIGN_IN_CANCELLED,
  ],
  ["another Office dialog event", (handlers) => handlers.ended(12002), /window ended \(Office code 12002\)/],
  [
    "a message from another origin",
    (handlers) => handlers.message({ message: tokenMessage(STATE), origin: "https://evil.example" }),
    /sent a message from https:\/\/evil\.example/,
  ],
  [
    "a message for another state",
    (handlers) => handlers.message({ message: tokenMessage("state-2"), origin: ORIGIN }),
    /state differs/,
  ],
  [
    "a message of the wrong shape",
    (handlers) => handlers.message({ message: "{}", origin: ORIGIN }),
    /wrong shape/,
  ],
  [
    "the dialog's own failure",
    (handlers) =>
      handlers.message({
        message: JSON.stringify({ type: "pcd-org-sign-in", state: STATE, failure: "access_denied" }),
        origin: ORIGIN,
      }),
    /failed: access_denied/,
  ],
])("%s: no sign-in, a message naming the cause, the dialog closed", async (_case, act, expected) => {
  const { source, dialog, closed } = setup();
  act(await dialog());
  const failure = await source.then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(Error);
  const message = (failure as Error).message;
  if (typeof expected === "string") expect(message).toBe(expected);
  else expect(message).toMatch(expected);
  expect(message).not.toContain("refresh-1");
  expect(closed()).toBe(1);
});

test("renewal uses the refresh token (rotated), never a window", async () => {
  const { source, auth, dialog, clock, bodies, opened } = setup([
    { access_token: accessToken("second"), expires_in: HOUR_S, refresh_token: "refresh-2" },
    { access_token: accessToken("third"), expires_in: HOUR_S },
  ]);
  (await dialog()).message({ message: tokenMessage(STATE), origin: ORIGIN });
  await startOrgSession(sessionEngine(auth), await source);
  clock.advance(HOUR_S * 1000);
  await expect(auth.token()).resolves.toBe(accessToken("second"));
  clock.advance(HOUR_S * 1000);
  await expect(auth.token()).resolves.toBe(accessToken("third"));
  expect(bodies.map((body) => [body.get("grant_type"), body.get("refresh_token")])).toEqual([
    ["refresh_token", "refresh-1"],
    ["refresh_token", "refresh-2"],
  ]);
  expect(opened).toHaveLength(1);
});

test.each<[string, string | null, unknown[]]>([
  ["no refresh token was given", null, []],
  ["the issuer refuses the refresh token", "refresh-1", [{ error: "invalid_grant" }]],
])("%s: the session ends and cells are told to sign in again", async (_case, refreshToken, answers) => {
  const { source, auth, dialog, clock, opened } = setup(answers);
  (await dialog()).message({ message: tokenMessage(STATE, refreshToken), origin: ORIGIN });
  await startOrgSession(sessionEngine(auth), await source);
  clock.advance(HOUR_S * 1000);
  await expect(auth.token()).rejects.toThrow(ORG_SIGN_IN_ENDED);
  await expect(auth.token()).rejects.toThrow(`${NOT_SIGNED_IN_MESSAGE} Last attempt: ${ORG_SIGN_IN_ENDED}`);
  expect(opened).toHaveLength(1);
});

test("sign-out forgets the refresh token: no renewal afterwards", async () => {
  const { source, auth, dialog, bodies } = setup();
  (await dialog()).message({ message: tokenMessage(STATE), origin: ORIGIN });
  const tokenSource = await source;
  await startOrgSession(sessionEngine(auth), tokenSource);
  auth.signOut();
  await expect(tokenSource.token("renewal")).rejects.toThrow(ORG_SIGN_IN_ENDED);
  expect(bodies).toHaveLength(0);
});
