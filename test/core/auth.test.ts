import { Auth, NOT_SIGNED_IN_MESSAGE } from "../../src/core/auth";
import { TOKEN_LIFETIME_MS, expiryOf } from "../../src/core/token-request";
import type { AuthStatus, EngineSettings } from "../../src/core/engine-api";
import { PcdError } from "../../src/core/errors";
import {
  FakeClock,
  QUIET_TIME,
  json,
  makeJwt,
  recordingLog,
  reject,
  scriptedFetch,
  settingsWith,
  text,
  type Responder,
} from "./http/fake-fetch";

const PASSWORD = "s3cret-Pa55word";
const NOW_S = QUIET_TIME / 1000;

function tokenFor(iat: number, lifetimeS = 7200): string {
  return makeJwt({ iat, exp: iat + lifetimeS, sub: "analyst@example.com" });
}

function setup(...responders: Responder[]) {
  const clock = new FakeClock(QUIET_TIME);
  let settings: EngineSettings = settingsWith();
  const { fetch, requests } = scriptedFetch(...responders);
  const { log, lines } = recordingLog();
  const auth = new Auth({ fetch, clock, settings: () => settings, log });
  return {
    auth,
    clock,
    requests,
    lines,
    setSettings: (patch: Partial<EngineSettings>) => {
      settings = { ...settings, ...patch };
    },
  };
}

async function caught(promise: Promise<unknown>): Promise<PcdError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PcdError) return error;
    throw error;
  }
  throw new Error("expected a PcdError");
}

describe("Auth.signIn", () => {
  test("posts the credentials as JSON to {authUrl}/access_token/v1", async () => {
    const token = tokenFor(NOW_S);
    const { auth, requests } = setup(json({ access_token: token }));
    const status = await auth.signIn("analyst@example.com", PASSWORD);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      url: "https://auth.example.com/access_token/v1",
      method: "POST",
      headers: expect.objectContaining({ "content-type": "application/json" }),
    });
    expect(JSON.parse(requests[0]?.body ?? "")).toEqual({
      username: "analyst@example.com",
      password: PASSWORD,
    });
    expect(status).toEqual<AuthStatus>({
      signedIn: true,
      username: "analyst@example.com",
      environment: "live",
      tokenExpiresAt: (NOW_S + 7200) * 1000,
      gateway: null,
    });
    await expect(auth.token()).resolves.toBe(token);
  });

  test.each<[string, Responder, string, RegExp]>([
    [
      "401 with a JSON message",
      json({ message: "Invalid credentials" }, 401),
      "auth",
      /^Sign-in failed: the service rejected the username or password \(HTTP 401\)\. Check both and sign in again\.$/,
    ],
    [
      "403 plain text",
      text("Forbidden", 403),
      "auth",
      /^Sign-in failed: the service rejected the username or password \(HTTP 403\)\. Check both/,
    ],
    [
      "400 without a body",
      text("", 400),
      "auth",
      /^Sign-in failed: the service rejected the username or password \(HTTP 400\)\. Check both/,
    ],
    [
      "an unreachable service",
      reject(new TypeError("fetch failed")),
      "network",
      /^Sign-in failed: The service at https:\/\/auth.example.com could not be reached for Access Token\. Check the network/,
    ],
    [
      "503",
      text("Down", 503, { "Retry-After": "600" }),
      "server",
      /^Sign-in failed: The service is failing: it answered HTTP 503/,
    ],
    [
      "500",
      text("boom", 500),
      "server",
      /^Sign-in failed: The service is failing: it answered HTTP 500 to Access Token/,
    ],
    ["200 without access_token", json({ token: "x" }), "protocol", /without an access_token/],
    ["200 with a non-JSON body", text("<html>", 200), "protocol", /without an access_token/],
  ])("%s -> %s", async (_name, responder, kind, message) => {
    const { auth } = setup(responder);
    const error = await caught(auth.signIn("analyst@example.com", PASSWORD));
    expect(error.kind).toBe(kind);
    expect(error.message).toMatch(message);
    expect(auth.status().signedIn).toBe(false);
    // Cells then say why, after what to do, and never show the password.
    const cell = await caught(auth.token());
    expect(cell.kind).toBe("not_signed_in");
    expect(cell.message).toBe(`${NOT_SIGNED_IN_MESSAGE} Last attempt: ${error.message}`);
    expect(cell.message).not.toContain(PASSWORD);
  });

  test("the cause of a failed sign-in is forgotten after a sign-in or a sign-out", async () => {
    const { auth } = setup(
      reject(new TypeError("fetch failed")),
      json({ access_token: tokenFor(NOW_S) }),
      reject(new TypeError("fetch failed")),
    );
    await caught(auth.signIn("analyst@example.com", PASSWORD));
    await auth.signIn("analyst@example.com", PASSWORD);
    // A failed sign-in while signed in leaves the session running: nothing to explain later.
    await caught(auth.signIn("analyst@example.com", PASSWORD));
    await expect(auth.token()).resolves.toBe(tokenFor(NOW_S));
    auth.signOut();
    await expect(auth.token()).rejects.toMatchObject({ message: NOT_SIGNED_IN_MESSAGE });
  });

  test("503 outside the calendar's windows is a failing service, with the wait it asked for", async () => {
    // The token service's words are never read (they may echo the password), so nothing
    // it says can make a 503 a maintenance: it is an outage of unknown cause.
    const { auth } = setup(text("Down for maintenance", 503, { "Retry-After": "600" }));
    const error = await caught(auth.signIn("analyst@example.com", PASSWORD));
    expect(error.kind).toBe("server");
    expect(error.details.retryAfterMs).toBe(600_000);
  });

  test.each([
    ["", PASSWORD, /username/],
    ["  ", PASSWORD, /username/],
    ["analyst@example.com", "", /password/],
  ])("rejects empty input (%p, %p) without a request", async (username, password, message) => {
    const { auth, requests } = setup(json({ access_token: tokenFor(NOW_S) }));
    const error = await caught(auth.signIn(username, password));
    expect(error.kind).toBe("input");
    expect(error.message).toMatch(message);
    expect(requests).toHaveLength(0);
  });

  test("a failed sign-in leaves the previous session as it was", async () => {
    const token = tokenFor(NOW_S);
    const { auth } = setup(json({ access_token: token }), json({ message: "nope" }, 401));
    await auth.signIn("first@example.com", PASSWORD);
    await expect(auth.signIn("second@example.com", "wrong")).rejects.toMatchObject({ kind: "auth" });
    expect(auth.status().username).toBe("first@example.com");
    await expect(auth.token()).resolves.toBe(token);
  });
});

describe("token answers PCD does not read", () => {
  test.each<[string, string, RegExp]>([
    [
      "over 1 MB",
      JSON.stringify({ access_token: "x".repeat(1024 * 1024) }),
      /^Sign-in failed: The Access Token answer was too large \(over 1 MB\); PCD stopped reading it\.$/,
    ],
    [
      "nested past what a token answer holds",
      `{"access_token":"${tokenFor(NOW_S)}","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      /^Sign-in failed: the token service answered without an access_token/,
    ],
  ])("%s: sign-in fails with a protocol error, no session", async (_name, body, message) => {
    const { auth } = setup(json(body));
    const error = await caught(auth.signIn("analyst@example.com", PASSWORD));
    expect(error.kind).toBe("protocol");
    expect(error.message).toMatch(message);
    expect(auth.status().signedIn).toBe(false);
  });
});

describe("signed in through a team gateway", () => {
  const gatewayToken = (sub?: string): string =>
    makeJwt({ iss: "pcd-gateway", iat: NOW_S, exp: NOW_S + 7200, ...(sub === undefined ? {} : { sub }) });

  test.each<[string, string, AuthStatus["gateway"]]>([
    ["a gateway's member token", gatewayToken("ana@team.example"), { member: "ana@team.example" }],
    ["a gateway token without a subject: the username", gatewayToken(), { member: "analyst@example.com" }],
    ["the service's own token", tokenFor(NOW_S), null],
    ["a token that is not a JWT", "opaque-token", null],
  ])("%s", async (_name, token, gateway) => {
    const { auth } = setup(json({ access_token: token }));
    await expect(auth.signIn("analyst@example.com", PASSWORD)).resolves.toMatchObject({ gateway });
    expect(auth.status().gateway).toEqual(gateway);
  });

  test("a renewal's token says it again; a sign-out forgets it", async () => {
    const { auth, clock } = setup(
      json({ access_token: gatewayToken("ana@team.example") }),
      json({ access_token: tokenFor(NOW_S + 7200) }),
    );
    await auth.signIn("analyst@example.com", PASSWORD);
    const told: AuthStatus[] = [];
    auth.onChange((status) => told.push(status));
    clock.time += 7200_000;
    await auth.token();
    expect(auth.status().gateway).toBeNull();
    expect(told.at(-1)?.gateway).toBeNull();
    auth.signOut();
    expect(auth.status()).toMatchObject({ signedIn: false, gateway: null });
  });

  // The gateway blocked the member since the sign-in: its 403 is not a wrong password.
  test.each<[string, string, RegExp]>([
    [
      "a gateway's token: the gateway refused the account",
      gatewayToken("ana@team.example"),
      /your team's gateway refused your account/,
    ],
    [
      "the service's own token: the username or password",
      tokenFor(NOW_S),
      /rejected the username or password/,
    ],
  ])("a renewal refused with a 403, after %s", async (_name, token, message) => {
    const { auth } = setup(
      json({ access_token: token }),
      json(
        { message: "Member ana@team.example is blocked at this gateway: ask the gateway's administrator." },
        403,
      ),
    );
    await auth.signIn("analyst@example.com", PASSWORD);
    const error = await caught(auth.renew());
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(message);
    expect(auth.status().signedIn).toBe(false);
  });
});

describe("token expiry", () => {
  test.each<[string, string, number]>([
    ["exp of the JWT", makeJwt({ iat: NOW_S, exp: NOW_S + 3600 }), QUIET_TIME + 3_600_000],
    ["issue time + 2 h without exp", makeJwt({ iat: NOW_S }), QUIET_TIME + TOKEN_LIFETIME_MS],
    ["issue time + 2 h for a non-JWT token", "opaque-token", QUIET_TIME + TOKEN_LIFETIME_MS],
    ["issue time + 2 h for a non-numeric exp", makeJwt({ exp: "later" }), QUIET_TIME + TOKEN_LIFETIME_MS],
    // A PC clock running an hour late sees an exp in the past: use the token's own lifetime.
    [
      "the token's lifetime when exp has passed",
      makeJwt({ iat: NOW_S - 7300, exp: NOW_S - 100 }),
      QUIET_TIME + 7_200_000,
    ],
    // A claimed lifetime past 24 h is not believed: the service's documented 2 h apply.
    ["exactly 24 h is believed", makeJwt({ iat: NOW_S, exp: NOW_S + 86_400 }), QUIET_TIME + 86_400_000],
    ["25 h: issue time + 2 h", makeJwt({ iat: NOW_S, exp: NOW_S + 90_000 }), QUIET_TIME + TOKEN_LIFETIME_MS],
    [
      "exp 10^13 (past what a Date holds): issue time + 2 h",
      makeJwt({ exp: 1e13 }),
      QUIET_TIME + TOKEN_LIFETIME_MS,
    ],
    ["exp 1e308: issue time + 2 h", makeJwt({ exp: 1e308 }), QUIET_TIME + TOKEN_LIFETIME_MS],
    [
      "a passed exp with a lifetime of years: issue time + 2 h",
      makeJwt({ iat: -1e12, exp: NOW_S - 100 }),
      QUIET_TIME + TOKEN_LIFETIME_MS,
    ],
  ])("%s", async (_name, token, expected) => {
    await expect(expiryOf(token, QUIET_TIME)).resolves.toBe(expected);
  });

  test("a token reader that cannot load: signed in for 2 h, the cause logged, and the next token read again", async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock("jose/jwt/decode", () => {
        throw new Error("Loading chunk jwt-claims failed");
      });
      const { Auth: IsolatedAuth } = await import("../../src/core/auth");
      const clock = new FakeClock(QUIET_TIME);
      const { fetch } = scriptedFetch(
        json({ access_token: tokenFor(NOW_S, 3600) }),
        json({ access_token: tokenFor(NOW_S, 3600) }),
      );
      const { log, lines } = recordingLog();
      const auth = new IsolatedAuth({ fetch, clock, settings: () => settingsWith(), log });
      const status = await auth.signIn("analyst@example.com", PASSWORD);
      expect(status).toMatchObject({ signedIn: true, tokenExpiresAt: QUIET_TIME + TOKEN_LIFETIME_MS });
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "warn",
          message:
            "The add-in could not load its token reader (Loading chunk jwt-claims failed): this access token is taken to last 2 hours and renewed at once if the service refuses it sooner; the next token tries the reader again.",
        }),
      );
      jest.dontMock("jose/jwt/decode");
      await auth.renew();
      expect(auth.status().tokenExpiresAt).toBe(QUIET_TIME + 3_600_000);
    });
  });

  test("a token whose exp is 10^13 signs in: a real expiry, a readable log, and it renews 2 h later", async () => {
    const absurd = makeJwt({ iat: NOW_S, exp: 1e13 });
    const { auth, clock, lines, requests } = setup(
      json({ access_token: absurd }),
      json({ access_token: tokenFor(NOW_S + 7200) }),
    );
    const status = await auth.signIn("analyst@example.com", PASSWORD);
    expect(status).toMatchObject({ signedIn: true, tokenExpiresAt: QUIET_TIME + TOKEN_LIFETIME_MS });
    expect(lines.map((line) => line.message).join("\n")).toContain(
      `token valid until ${new Date(QUIET_TIME + TOKEN_LIFETIME_MS).toISOString()}`,
    );
    await expect(auth.token()).resolves.toBe(absurd);
    clock.advance(TOKEN_LIFETIME_MS);
    await expect(auth.token()).resolves.not.toBe(absurd);
    expect(requests).toHaveLength(2);
  });
});

describe("the sign-in code, loaded with the first sign-in", () => {
  test("a load that fails: sign-in fails naming the cause, nothing is sent, cells say why, and the next sign-in loads it", async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock("../../src/core/token-request", () => {
        throw new Error("Loading chunk token-request failed");
      });
      const { Auth: IsolatedAuth } = await import("../../src/core/auth");
      const clock = new FakeClock(QUIET_TIME);
      const { fetch, requests } = scriptedFetch(json({ access_token: tokenFor(NOW_S) }));
      const auth = new IsolatedAuth({ fetch, clock, settings: () => settingsWith() });
      const message =
        "Sign-in failed: the add-in could not load its sign-in code (Loading chunk token-request failed): check the connection and try again.";

      // The isolated modules have their own PcdError class: the error is compared by its fields.
      await expect(auth.signIn("analyst@example.com", PASSWORD)).rejects.toMatchObject({
        kind: "network",
        message,
      });
      expect(requests).toHaveLength(0);
      expect(auth.requestCount()).toBe(0);
      await expect(auth.token()).rejects.toMatchObject({
        kind: "not_signed_in",
        message: `${NOT_SIGNED_IN_MESSAGE} Last attempt: ${message}`,
      });

      jest.dontMock("../../src/core/token-request");
      await expect(auth.signIn("analyst@example.com", PASSWORD)).resolves.toMatchObject({ signedIn: true });
      expect(requests).toHaveLength(1);
    });
  });
});

describe("Auth.token and renewal", () => {
  test("not signed in: a clear message and no request", async () => {
    const { auth, requests } = setup(json({ access_token: tokenFor(NOW_S) }));
    const error = await caught(auth.token());
    expect(error.kind).toBe("not_signed_in");
    expect(error.message).toBe(NOT_SIGNED_IN_MESSAGE);
    await expect(auth.renew()).rejects.toMatchObject({ kind: "not_signed_in" });
    expect(requests).toHaveLength(0);
  });

  test("reuses the token until 5 minutes before expiry, then renews silently", async () => {
    const first = tokenFor(NOW_S);
    const second = tokenFor(NOW_S + 6900);
    const { auth, clock, requests } = setup(json({ access_token: first }), json({ access_token: second }));
    await auth.signIn("analyst@example.com", PASSWORD);
    clock.advance(7200_000 - 300_000 - 1);
    await expect(auth.token()).resolves.toBe(first);
    expect(requests).toHaveLength(1);
    clock.advance(1);
    await expect(auth.token()).resolves.toBe(second);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[1]?.body ?? "")).toEqual({
      username: "analyst@example.com",
      password: PASSWORD,
    });
    expect(auth.status().tokenExpiresAt).toBe((NOW_S + 6900 + 7200) * 1000);
  });

  test("concurrent renewals share one request", async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const renewed = tokenFor(NOW_S + 60);
    const { auth, requests } = setup(json({ access_token: tokenFor(NOW_S) }), async () => {
      await gate;
      return new Response(JSON.stringify({ access_token: renewed }), { status: 200 });
    });
    await auth.signIn("analyst@example.com", PASSWORD);
    const pending = [auth.renew(), auth.renew(), auth.renew()];
    release?.();
    await expect(Promise.all(pending)).resolves.toEqual([renewed, renewed, renewed]);
    expect(requests).toHaveLength(2);
    expect(auth.requestCount()).toBe(2);
  });

  test("expired tokens needed by many callers at once renew once", async () => {
    const { auth, clock, requests } = setup(
      json({ access_token: tokenFor(NOW_S) }),
      json({ access_token: tokenFor(NOW_S + 7200) }),
    );
    await auth.signIn("analyst@example.com", PASSWORD);
    clock.advance(7200_000);
    const tokens = await Promise.all(Array.from({ length: 5 }, () => auth.token()));
    expect(new Set(tokens).size).toBe(1);
    expect(requests).toHaveLength(2);
  });

  test("renewal rejected by the service signs out and says so", async () => {
    const { auth } = setup(
      json({ access_token: tokenFor(NOW_S) }),
      json({ message: "password changed" }, 401),
    );
    const changes: AuthStatus[] = [];
    auth.onChange((status) => changes.push(status));
    await auth.signIn("analyst@example.com", PASSWORD);
    await expect(auth.renew()).rejects.toMatchObject({ kind: "auth" });
    expect(auth.status().signedIn).toBe(false);
    expect(changes.map((status) => status.signedIn)).toEqual([true, false]);
    await expect(auth.token()).rejects.toMatchObject({
      kind: "not_signed_in",
      message: `${NOT_SIGNED_IN_MESSAGE} Last attempt: Renewing the access token failed: the service rejected the username or password (HTTP 401). Check both and sign in again.`,
    });
  });

  test("a network failure during renewal keeps the credentials for the next try", async () => {
    const { auth } = setup(
      json({ access_token: tokenFor(NOW_S) }),
      reject(new TypeError("fetch failed")),
      json({ access_token: tokenFor(NOW_S + 1) }),
    );
    await auth.signIn("analyst@example.com", PASSWORD);
    await expect(auth.renew()).rejects.toMatchObject({ kind: "network" });
    expect(auth.status().signedIn).toBe(true);
    await expect(auth.renew()).resolves.toBe(tokenFor(NOW_S + 1));
  });

  test("a sign-out during a renewal wins over its result", async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { auth } = setup(json({ access_token: tokenFor(NOW_S) }), async () => {
      await gate;
      return new Response(JSON.stringify({ access_token: tokenFor(NOW_S + 1) }), { status: 200 });
    });
    await auth.signIn("analyst@example.com", PASSWORD);
    const renewal = auth.renew();
    auth.signOut();
    release?.();
    await expect(renewal).rejects.toMatchObject({ kind: "not_signed_in" });
    expect(auth.status().signedIn).toBe(false);
  });
  test("a new sign-in during a renewal: the waiting callers get the new session's token", async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const oldRenewal = tokenFor(NOW_S + 1);
    const newSession = tokenFor(NOW_S + 2);
    const { auth } = setup(
      json({ access_token: tokenFor(NOW_S) }),
      async () => {
        await gate;
        return new Response(JSON.stringify({ access_token: oldRenewal }), { status: 200 });
      },
      json({ access_token: newSession }),
    );
    await auth.signIn("first@example.com", PASSWORD);
    const renewal = auth.renew();
    await auth.signIn("second@example.com", "other-password");
    release?.();
    await expect(renewal).resolves.toBe(newSession);
    await expect(auth.token()).resolves.toBe(newSession);
    expect(auth.status().username).toBe("second@example.com");
  });
});

describe("sign-out and settings changes", () => {
  test("signOut drops token and password and notifies", async () => {
    const { auth, requests } = setup(json({ access_token: tokenFor(NOW_S) }));
    const changes: AuthStatus[] = [];
    const unsubscribe = auth.onChange((status) => changes.push(status));
    await auth.signIn("analyst@example.com", PASSWORD);
    auth.signOut();
    expect(auth.status()).toEqual({
      signedIn: false,
      username: null,
      environment: "live",
      tokenExpiresAt: null,
      gateway: null,
    });
    await expect(auth.renew()).rejects.toMatchObject({ kind: "not_signed_in" });
    expect(requests).toHaveLength(1);
    unsubscribe();
    auth.signOut();
    expect(changes).toHaveLength(2);
  });

  test("switching live/sandbox keeps the token (same account)", async () => {
    const token = tokenFor(NOW_S);
    const { auth, setSettings } = setup(json({ access_token: token }));
    await auth.signIn("analyst@example.com", PASSWORD);
    setSettings({ environment: "sandbox" });
    await expect(auth.token()).resolves.toBe(token);
    expect(auth.status()).toMatchObject({ signedIn: true, environment: "sandbox" });
  });

  test.each<[Partial<EngineSettings>]>([
    [{ baseUrl: "https://other.example.com" }],
    [{ authUrl: "https://sso.example.com" }],
  ])("changing %o signs out", async (patch) => {
    const { auth, setSettings } = setup(json({ access_token: tokenFor(NOW_S) }));
    const changes: AuthStatus[] = [];
    auth.onChange((status) => changes.push(status));
    await auth.signIn("analyst@example.com", PASSWORD);
    setSettings(patch);
    auth.checkSettings();
    expect(auth.status().signedIn).toBe(false);
    expect(changes.map((status) => status.signedIn)).toEqual([true, false]);
    await expect(auth.token()).rejects.toMatchObject({ kind: "not_signed_in" });
  });
});

describe("secrets never leak", () => {
  test("no password or token in any error message or log line", async () => {
    const token = tokenFor(NOW_S);
    const scenarios: Responder[] = [
      json({ message: `Wrong password ${PASSWORD} for user` }, 401),
      text(`Server error while checking ${PASSWORD}`, 500),
      json({ message: `Down, your token ${token} is kept` }, 503),
      reject(new TypeError(`connect failed ${PASSWORD}`)),
      json({ access_token: token }),
    ];
    const messages: string[] = [];
    const logs: string[] = [];
    for (const responder of scenarios) {
      const { auth, lines } = setup(responder, json({ message: `expired ${token}` }, 401));
      try {
        await auth.signIn("analyst@example.com", PASSWORD);
        await auth.renew();
      } catch (error) {
        messages.push((error as Error).message, JSON.stringify((error as PcdError).details));
      }
      logs.push(...lines.map((line) => line.message));
    }
    expect(messages.length).toBeGreaterThanOrEqual(10);
    for (const text of [...messages, ...logs]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(token);
    }
  });
});
