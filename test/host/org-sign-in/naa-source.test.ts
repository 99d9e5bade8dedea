// Organisation sign-in through nested app authentication, against a fake MSAL client: a
// silent token first, a popup only when that fails, a clear message when the popup is
// closed, silent renewals that never open a window, and sign-out clearing MSAL's cache.
import { Auth, NOT_SIGNED_IN_MESSAGE } from "../../../src/core/auth";
import { PcdError } from "../../../src/core/errors";
import {
  onOrgSignInEnded,
  noteOrgSignInEnded,
  orgSignInEndedNotice,
} from "../../../src/host/org-sign-in/ended-notice";
import { ORG_SIGN_IN_CANCELLED, ORG_SIGN_IN_ENDED } from "../../../src/host/org-sign-in/messages";
import {
  signInNested,
  type NestedAppClient,
  type NestedAppResult,
} from "../../../src/host/org-sign-in/naa-source";
import { isOrgSession, startOrgSession } from "../../../src/host/org-sign-in/org-session";
import {
  FakeClock,
  QUIET_TIME,
  json,
  makeJwt,
  scriptedFetch,
  settingsWith,
} from "../../core/http/fake-fetch";

/** The engine's sign-in as the pane's organisation session sees it: the real Auth. */
const sessionEngine = (auth: Auth) => ({
  signIn: (source: Parameters<Auth["signIn"]>[0] & object) => auth.signIn(source),
  onAuthChange: (listener: Parameters<Auth["onChange"]>[0]) => auth.onChange(listener),
});

const SCOPE = "api://gateway-client/access_as_user";
const HOUR = 3_600_000;

type Answer = NestedAppResult | { errorCode: string };
type Call = { method: "silent" | "popup"; forceRefresh?: boolean; account?: string };

/** MSAL as NAA gives it: answers scripted per method, calls recorded. */
function fakeClient(script: { silent: Answer[]; popup?: Answer[] }) {
  const calls: Call[] = [];
  let cleared = 0;
  const answer = (queue: Answer[] | undefined): Promise<NestedAppResult> => {
    const next = queue?.shift();
    if (next === undefined) return Promise.reject(new Error("the script has no more answers"));
    if ("errorCode" in next) return Promise.reject(Object.assign(new Error(next.errorCode), next));
    return Promise.resolve(next);
  };
  const client: NestedAppClient = {
    acquireTokenSilent: (request) => {
      calls.push({
        method: "silent",
        ...(request.forceRefresh ? { forceRefresh: true } : {}),
        ...(request.account ? { account: request.account.username } : {}),
      });
      return answer(script.silent);
    },
    acquireTokenPopup: () => {
      calls.push({ method: "popup" });
      return answer(script.popup);
    },
    clearCache: () => {
      cleared++;
      return Promise.resolve();
    },
  };
  return { client, calls, cleared: () => cleared };
}

function result(clock: FakeClock, name: string, claims: Record<string, unknown> = {}): NestedAppResult {
  return {
    accessToken: makeJwt({ preferred_username: "Ana@Example.com", ...claims, name }),
    expiresOn: new Date(clock.now() + HOUR),
    account: { username: "ana@example.com" },
  };
}

function setup(script: (clock: FakeClock) => { silent: Answer[]; popup?: Answer[] }) {
  const clock = new FakeClock(QUIET_TIME);
  const fake = fakeClient(script(clock));
  const auth = new Auth({ fetch: scriptedFetch().fetch, clock, settings: () => settingsWith() });
  const signIn = async () =>
    startOrgSession(sessionEngine(auth), await signInNested(fake.client, SCOPE, () => clock.now()));
  return { clock, auth, signIn, ...fake };
}

afterEach(() => noteOrgSignInEnded(null));

describe("signing in", () => {
  test("a silent token: no window opens; the account is the token's preferred_username", async () => {
    const { signIn, calls, auth } = setup((clock) => ({ silent: [result(clock, "first")] }));
    const status = await signIn();
    expect(calls).toEqual([{ method: "silent" }]);
    expect(status).toMatchObject({ signedIn: true, username: "ana@example.com" });
    expect(isOrgSession(status)).toBe(true);
    expect(status.tokenExpiresAt).toBe(QUIET_TIME + HOUR);
    await expect(auth.token()).resolves.toContain(".");
  });

  test("the silent token fails: the popup signs in", async () => {
    const { signIn, calls } = setup((clock) => ({
      silent: [{ errorCode: "no_account_error" }],
      popup: [result(clock, "popup", { preferred_username: "ben@example.com" })],
    }));
    await expect(signIn()).resolves.toMatchObject({ username: "ben@example.com" });
    expect(calls).toEqual([{ method: "silent" }, { method: "popup" }]);
  });

  test.each<[string, string, RegExp | string]>([
    ["the popup closed by the user: a clear message", "user_cancelled", ORG_SIGN_IN_CANCELLED],
    ["the popup blocked: the cause named", "popup_window_error", /failed: popup_window_error/],
    [
      "no network: a connection message",
      "no_network_connectivity",
      /Can't reach your organisation's sign-in service/,
    ],
  ])("%s", async (_case, errorCode, message) => {
    const { signIn, auth } = setup(() => ({
      silent: [{ errorCode: "interaction_required" }],
      popup: [{ errorCode }],
    }));
    const failure = await signIn().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PcdError);
    expect((failure as PcdError).message).toEqual(
      typeof message === "string" ? message : expect.stringMatching(message),
    );
    expect(auth.status().signedIn).toBe(false);
  });
});

describe("renewal", () => {
  test("before expiry the token is renewed silently (forced past MSAL's cache), for the same account", async () => {
    const { signIn, calls, clock, auth } = setup((clock) => ({
      silent: [result(clock, "first"), result(clock, "second")],
    }));
    await signIn();
    const first = await auth.token();
    clock.advance(HOUR - 4 * 60_000);
    const second = await auth.token();
    expect(second).not.toBe(first);
    expect(calls).toEqual([
      { method: "silent" },
      { method: "silent", forceRefresh: true, account: "ana@example.com" },
    ]);
  });

  test("a silent renewal that needs the user: no window opens, cells are told to sign in again, the pane hears it", async () => {
    const { signIn, calls, clock, auth, cleared } = setup((clock) => ({
      silent: [result(clock, "first"), { errorCode: "interaction_required" }],
    }));
    const heard: (string | null)[] = [];
    const unsubscribe = onOrgSignInEnded((notice) => heard.push(notice));
    await signIn();
    clock.advance(HOUR);
    await expect(auth.token()).rejects.toThrow(ORG_SIGN_IN_ENDED);
    unsubscribe();
    expect(calls.map((call) => call.method)).toEqual(["silent", "silent"]);
    await expect(auth.token()).rejects.toThrow(`${NOT_SIGNED_IN_MESSAGE} Last attempt: ${ORG_SIGN_IN_ENDED}`);
    expect(heard).toEqual([ORG_SIGN_IN_ENDED]);
    expect(orgSignInEndedNotice()).toBe(ORG_SIGN_IN_ENDED);
    expect(cleared()).toBe(1);
  });

  test("a renewal that fails on the network keeps the session", async () => {
    const { signIn, clock, auth } = setup((clock) => ({
      silent: [result(clock, "first"), { errorCode: "no_network_connectivity" }],
    }));
    await signIn();
    clock.advance(HOUR);
    await expect(auth.token()).rejects.toThrow(/Can't reach/);
    expect(auth.status().signedIn).toBe(true);
    expect(orgSignInEndedNotice()).toBeNull();
  });
});

test("sign-out clears MSAL's cache, and the session is no longer the organisation's", async () => {
  const { signIn, auth, cleared } = setup((clock) => ({ silent: [result(clock, "first")] }));
  await signIn();
  expect(cleared()).toBe(0);
  auth.signOut();
  expect(cleared()).toBe(1);
  expect(auth.status().signedIn).toBe(false);
  expect(isOrgSession({ ...auth.status(), signedIn: true, username: "ana@example.com" })).toBe(false);
});

test("a password sign-in after it: MSAL's cache is cleared, the status is not the organisation's", async () => {
  const clock = new FakeClock(QUIET_TIME);
  const fake = fakeClient({ silent: [result(clock, "first")] });
  const passwordToken = makeJwt({ iat: QUIET_TIME / 1000, exp: QUIET_TIME / 1000 + 7200 });
  const { fetch } = scriptedFetch(json({ access_token: passwordToken }));
  const auth = new Auth({ fetch, clock, settings: () => settingsWith() });
  await startOrgSession(sessionEngine(auth), await signInNested(fake.client, SCOPE, () => clock.now()));
  const status = await auth.signIn("analyst@example.com", "s3cret-Pa55word");
  expect(fake.cleared()).toBe(1);
  expect(isOrgSession(status)).toBe(false);
});
