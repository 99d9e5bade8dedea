// The engine's sign-in through the organisation's account: the token source gives the
// token at sign-in and renews it before expiry; a renewal it cannot make without a window
// ends the session with a "sign in again" message for cells.
import { Auth, NOT_SIGNED_IN_MESSAGE } from "../../src/core/auth";
import { PcdError } from "../../src/core/errors";
import type { ExternalTokenSource } from "../../src/core/token-source";
import type { IssuedToken, TokenPurpose } from "../../src/core/token-request";
import { FakeClock, QUIET_TIME, scriptedFetch, settingsWith } from "./http/fake-fetch";

const HOUR = 3_600_000;
const MEMBER = "ana@example.com";
const SIGN_IN_AGAIN = "Your organisation sign-in has ended: sign in again in the PCD pane.";

/** A source answering from a script, one answer per call, and recording what it was asked. */
function scriptedSource(clock: FakeClock, answers: (string | PcdError)[]) {
  const asked: TokenPurpose[] = [];
  const source: ExternalTokenSource = {
    account: MEMBER,
    token: (purpose) => {
      asked.push(purpose);
      const answer = answers.shift();
      if (answer === undefined) return Promise.reject(new Error("the script has no more answers"));
      if (answer instanceof PcdError) return Promise.reject(answer);
      const issued: IssuedToken = {
        token: answer,
        expiresAt: clock.now() + HOUR,
        issuedAt: clock.now(),
        gateway: { member: MEMBER },
      };
      return Promise.resolve(issued);
    },
  };
  return { source, asked };
}

function setup(answers: (string | PcdError)[]) {
  const clock = new FakeClock(QUIET_TIME);
  const { fetch, requests } = scriptedFetch();
  const auth = new Auth({ fetch, clock, settings: () => settingsWith() });
  return { auth, clock, requests, ...scriptedSource(clock, answers) };
}

test("sign-in takes the source's token and names its account; no password request", async () => {
  const { auth, source, asked, requests } = setup(["org-token-1"]);
  const status = await auth.signIn(source);
  expect(status).toMatchObject({ signedIn: true, username: MEMBER });
  expect(status.gateway).toEqual({ member: MEMBER });
  await expect(auth.token()).resolves.toBe("org-token-1");
  expect(asked).toEqual(["sign-in"]);
  expect(requests).toHaveLength(0);
});

test.each<[string, number, string[], string]>([
  ["well before expiry: the same token, nothing asked", 30 * 60_000, ["sign-in"], "org-token-1"],
  ["within 5 minutes of expiry: renewed silently", HOUR - 4 * 60_000, ["sign-in", "renewal"], "org-token-2"],
  ["past expiry: renewed silently", HOUR + 60_000, ["sign-in", "renewal"], "org-token-2"],
])("%s", async (_case, elapsed, expectedAsks, expectedToken) => {
  const { auth, clock, source, asked } = setup(["org-token-1", "org-token-2"]);
  await auth.signIn(source);
  clock.advance(elapsed);
  await expect(auth.token()).resolves.toBe(expectedToken);
  expect(asked).toEqual(expectedAsks);
});

test("a renewal the source cannot make silently ends the session: cells are told to sign in again", async () => {
  const { auth, clock, source } = setup(["org-token-1", new PcdError("auth", SIGN_IN_AGAIN)]);
  await auth.signIn(source);
  clock.advance(HOUR);
  await expect(auth.token()).rejects.toThrow(SIGN_IN_AGAIN);
  expect(auth.status().signedIn).toBe(false);
  const cellError = await auth.token().catch((error: unknown) => error);
  expect(cellError).toBeInstanceOf(PcdError);
  expect((cellError as PcdError).message).toBe(`${NOT_SIGNED_IN_MESSAGE} Last attempt: ${SIGN_IN_AGAIN}`);
});

test("a renewal that fails on the network keeps the session for the next try", async () => {
  const { auth, clock, source } = setup([
    "org-token-1",
    new PcdError("network", "Can't reach the sign-in service."),
    "org-token-2",
  ]);
  await auth.signIn(source);
  clock.advance(HOUR);
  await expect(auth.token()).rejects.toThrow("Can't reach");
  expect(auth.status().signedIn).toBe(true);
  await expect(auth.token()).resolves.toBe("org-token-2");
});

test("sign-out drops the source's token", async () => {
  const { auth, source } = setup(["org-token-1"]);
  await auth.signIn(source);
  auth.signOut();
  expect(auth.status()).toMatchObject({ signedIn: false, username: null });
  await expect(auth.token()).rejects.toThrow(NOT_SIGNED_IN_MESSAGE);
});

test("a failed organisation sign-in leaves no session and tells cells why", async () => {
  const { auth, source } = setup([new PcdError("auth", "Sign-in was cancelled.")]);
  await expect(auth.signIn(source)).rejects.toThrow("Sign-in was cancelled.");
  expect(auth.status().signedIn).toBe(false);
  await expect(auth.token()).rejects.toThrow("Last attempt: Sign-in was cancelled.");
});
