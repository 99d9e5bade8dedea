import type { ServiceState } from "../../src/core/engine-api";
import { PcdError, type PcdErrorKind } from "../../src/core/errors";
import { serviceState } from "../../src/core/schedule";
import { requestToken } from "../../src/core/token-request";
import { HeldTimers } from "../support/held-timers";
import { until } from "../support/until";
import { FakeClock, QUIET_TIME, hang, json, makeJwt, scriptedFetch, settingsWith } from "./http/fake-fetch";

const PASSWORD = "hunter2-Correct-Horse";

function held(responder: ReturnType<typeof hang>) {
  const timers = new HeldTimers();
  const { fetch, requests } = scriptedFetch(responder);
  const pending = requestToken(
    { fetch, clock: new FakeClock(QUIET_TIME), scheduler: timers },
    {
      username: "ana",
      password: PASSWORD,
      settings: settingsWith({ callTimeoutMs: 5_000 }),
      purpose: "sign-in",
    },
  );
  return { pending, requests, timers };
}

describe("the token request's timeout runs on the injected scheduler", () => {
  test("a request without an answer times out when its timer fires, not before", async () => {
    const { pending, requests, timers } = held(hang());
    let settled = false;
    const outcome = pending.then(
      () => undefined,
      (error: unknown) => error,
    );
    void outcome.finally(() => (settled = true));
    await until(
      () => requests.length,
      (count) => count === 1,
      "the token request is sent",
    );
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5_000]);
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    timers.fire();
    const error = await outcome;
    expect(error).toBeInstanceOf(PcdError);
    expect((error as PcdError).kind).toBe("timeout");
    expect((error as PcdError).message).toMatch(/^Sign-in failed: .*5 s/);
    expect((error as PcdError).message).not.toContain(PASSWORD);
  });

  test("an answered request leaves no timer", async () => {
    const token = makeJwt({ exp: Math.floor(QUIET_TIME / 1000) + 7200 });
    const { pending, timers } = held(json({ access_token: token }));
    await expect(pending).resolves.toMatchObject({ token });
    expect(timers.set).toBe(1);
    expect(timers.pending).toEqual([]);
  });
});

describe("a 503 from the token service on release day", () => {
  // Release day (the third business day), 12:00 US Central.
  const RELEASE_DAY = Date.parse("2026-12-03T18:00:00Z");
  test.each<[string, (() => ServiceState) | undefined, RegExp]>([
    ["by the calendar alone: the release downtime", undefined, /down for the monthly data release/],
    [
      "after the engine saw the release out: a failing service",
      () => ({ ...serviceState(RELEASE_DAY, 3), available: true, reason: null, until: null }),
      /^Sign-in failed: The service is failing: it answered HTTP 503/,
    ],
  ])("%s", async (_name, state, message) => {
    const { fetch } = scriptedFetch(json({ message: "Service Unavailable" }, 503));
    const error = await requestToken(
      { fetch, clock: new FakeClock(RELEASE_DAY), ...(state ? { serviceState: state } : {}) },
      { username: "ana", password: PASSWORD, settings: settingsWith({}), purpose: "sign-in" },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PcdError);
    expect((error as PcdError).message).toMatch(message);
  });
});

// A renewal of a team gateway's token is the gateway's to answer: its 403 refuses the member
// (blocked there), not a password that signed in before, and its own 503 in a window (one with
// no word of the service's) is a failure of the gateway's, not the window.
describe("a renewal answered by a team gateway", () => {
  const RELEASE_DAY = Date.parse("2026-12-03T18:00:00Z");
  test.each<[string, boolean, number, PcdErrorKind, RegExp]>([
    [
      "403 through a gateway: the gateway refused the account",
      true,
      403,
      "auth",
      /^Renewing the access token failed: your team's gateway refused your account \(HTTP 403\): it may be blocked there/,
    ],
    [
      "403 from the service itself: the username or password",
      false,
      403,
      "auth",
      /rejected the username or password/,
    ],
    [
      "401 through a gateway: the username or password",
      true,
      401,
      "auth",
      /rejected the username or password/,
    ],
    [
      "503 of the gateway's own in the release window: a failure, not the window",
      true,
      503,
      "server",
      /^Renewing the access token failed: The service is failing: it answered HTTP 503/,
    ],
    [
      "503 from the service itself in the release window: the window",
      false,
      503,
      "unavailable",
      /monthly data release/,
    ],
  ])("%s", async (_name, throughGateway, status, kind, message) => {
    const { fetch } = scriptedFetch(
      json(
        { message: "Member ana@team.example is blocked at this gateway: ask the gateway's administrator." },
        status,
      ),
    );
    const error = await requestToken(
      { fetch, clock: new FakeClock(RELEASE_DAY) },
      { username: "ana", password: PASSWORD, settings: settingsWith({}), purpose: "renewal", throughGateway },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PcdError);
    expect((error as PcdError).kind).toBe(kind);
    expect((error as PcdError).message).toMatch(message);
    expect((error as PcdError).message).not.toContain(PASSWORD);
  });
});

// A first sign-in does not know it is a gateway's: the gateway says it blocked the member in a
// header of its own, and that, not the status alone, tells it apart from a wrong password.
test.each<[string, Record<string, string>, RegExp]>([
  [
    "a gateway's 403 saying it blocked the member",
    { "pcd-gateway-refusal": "member-blocked" },
    /^Sign-in failed: your team's gateway refused your account \(HTTP 403\): it may be blocked there/,
  ],
  [
    "a 403 that says nothing more",
    {},
    /^Sign-in failed: the service rejected the username or password \(HTTP 403\)/,
  ],
])("a first sign-in refused with %s", async (_name, headers, message) => {
  const { fetch } = scriptedFetch(json({ message: "Forbidden" }, 403, headers));
  const error = await requestToken(
    { fetch, clock: new FakeClock(QUIET_TIME) },
    { username: "ana", password: PASSWORD, settings: settingsWith({}), purpose: "sign-in" },
  ).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PcdError);
  expect((error as PcdError).kind).toBe("auth");
  expect((error as PcdError).message).toMatch(message);
});
