// The Status tab and the outage banner read reachability from the engine's own calls:
// unreachable since the first call without an answer, a maintenance with the end the
// service announced, and available again with the next answer.
import type { Engine } from "../../src/core/engine-api";
import { serviceCondition } from "../../src/core/service-condition";
import { serviceConditionText } from "../../src/taskpane/outage-text";
import { QUIET_TIME } from "./http/fake-fetch";
import { createEngine } from "../../src/core/engine";
import { OUTAGE_PROBE_DELAYS_MS } from "../../src/core/outage-probe";
import { MemoryStorage } from "../../src/core/storage";
import { HeldTimers } from "../support/held-timers";
import { AUTH_URL, BASE_URL, fakePcd, settle, signedInEngine, type FakePcd } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";

async function start(): Promise<{ engine: Engine; pcd: FakePcd }> {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  return { engine: await signedInEngine(pcd), pcd };
}

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

test("unreachable since the first call without an answer, until the next answer", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  expect(engine.serviceState().reachability).toMatchObject({ unreachableSince: null, reason: null });
  const changes: number[] = [];
  engine.onMetaChange(() => changes.push(Date.now()));

  pcd.mode = "down";
  const downAt = Date.now();
  const first = await settle(engine.getSeries(request));
  expect(first.status).toBe("rejected");
  const state = engine.serviceState();
  // The calendar has nothing against the service: only the calls know.
  expect(state.available).toBe(true);
  const since = state.reachability?.unreachableSince ?? null;
  // When the batch window closed and the call left (fake time: 20 ms after the cell asked).
  expect(since).toBeGreaterThanOrEqual(downAt);
  expect(since).toBeLessThan(downAt + 1_000);
  expect(state.reachability?.reason).toMatch(/could not be reached|network|connect/i);
  expect(changes.length).toBeGreaterThan(0);

  // Later failures keep the first time.
  await settle(engine.getSeries(request));
  expect(engine.serviceState().reachability?.unreachableSince).toBe(since);

  pcd.mode = "up";
  const back = await settle(engine.getSeries(request));
  expect(back.status).toBe("fulfilled");
  expect(engine.serviceState().reachability).toMatchObject({
    unreachableSince: null,
    reason: null,
    lastAnswerAt: expect.any(Number),
  });
});

test("a maintenance the service announces shows until its end, then the next answer makes it available", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  pcd.mode = "maintenance";
  const saidAt = Date.now();
  await settle(engine.getSeries(request), 1_000);
  const state = engine.serviceState();
  expect(state).toMatchObject({ available: false, reason: "maintenance" });
  expect(state.until).toBeGreaterThanOrEqual(saidAt + 3_600_000);
  expect(state.until).toBeLessThanOrEqual(saidAt + 3_601_000);

  pcd.mode = "up";
  await jest.advanceTimersByTimeAsync(3_601_000);
  const back = await settle(engine.getSeries(request));
  expect(back.status).toBe("fulfilled");
  expect(engine.serviceState()).toMatchObject({
    available: true,
    reachability: { unreachableSince: null, maintenanceUntil: null },
  });
});

test("503s without a word of maintenance are an outage of unknown cause, never a maintenance", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  pcd.mode = "failing";
  const failedAt = Date.now();
  const first = await settle(engine.getSeries(request));
  expect(first.status).toBe("rejected");
  const reason = first.status === "rejected" ? String((first.reason as Error).message) : "";
  expect(reason).toMatch(/^The service is failing: it answered HTTP 503/);
  expect(reason).not.toMatch(/maintenance|release|cached/i);
  const state = engine.serviceState();
  expect(state).toMatchObject({ available: true, reason: null });
  expect(state.reachability).toMatchObject({ maintenanceUntil: null, failingStatus: 503 });
  expect(serviceCondition(state)).toMatchObject({ kind: "failing", status: 503 });
  const since = state.reachability?.unreachableSince ?? 0;
  expect(since).toBeGreaterThanOrEqual(failedAt);

  pcd.mode = "up";
  expect((await settle(engine.getSeries(request))).status).toBe("fulfilled");
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "up" });
});

test("the engine tells once that the service answers again after it could not be reached", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  let told = 0;
  engine.onServiceBack?.(() => (told += 1));
  pcd.mode = "down";
  await settle(engine.getSeries(request));
  expect(told).toBe(0);
  pcd.mode = "up";
  await settle(engine.getSeries(request));
  await settle(engine.getSeries(request));
  expect(told).toBe(1);
});

test("a token renewal answered with a server error is the service failing, not 'available'", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  // The token runs out; its renewal is the call that meets the outage.
  jest.setSystemTime(Date.now() + 2 * 3_600_000);
  pcd.mode = "token-failing";
  expect((await settle(engine.getSeries(request))).status).toBe("rejected");
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "failing", status: 503 });
  pcd.mode = "up";
  expect((await settle(engine.getSeries(request))).status).toBe("fulfilled");
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "up" });
});

test("after a network drop the engine learns the service is back by itself (a Data Limits probe), and backs off meanwhile", async () => {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  let told = 0;
  engine.onServiceBack?.(() => (told += 1));
  pcd.mode = "down";
  await settle(engine.getSeries(request));
  const probes = (): number => pcd.urls.filter((url) => url.endsWith("/data_limits")).length;
  const before = probes();
  // An hour of outage: a few probes, not a loop.
  await jest.advanceTimersByTimeAsync(3_600_000);
  expect(probes() - before).toBeLessThanOrEqual(5);
  expect(serviceCondition(engine.serviceState()).kind).toBe("unreachable");
  // The network is back; no cell or user calls: the next probe tells, within 15 minutes.
  pcd.mode = "up";
  await jest.advanceTimersByTimeAsync(15 * 60_000);
  expect(serviceCondition(engine.serviceState()).kind).toBe("up");
  expect(told).toBe(1);
  // Answering: no more probes.
  const after = probes();
  await jest.advanceTimersByTimeAsync(3 * 3_600_000);
  expect(probes()).toBe(after);
});

/** An engine that met an outage (a data call got no answer), then was signed out. */
async function signedOutInOutage(): Promise<{ engine: Engine; pcd: FakePcd }> {
  const { engine, pcd } = await start();
  await settle(engine.catalog("energy_price"));
  const request = await engine.resolve(CODE, null, null);
  pcd.mode = "down";
  await settle(engine.getSeries(request));
  await engine.signOut();
  return { engine, pcd };
}

test("signing out in an outage stops the probe: no session, nothing to call with", async () => {
  const { pcd } = await signedOutInOutage();
  const probes = (): number => pcd.urls.filter((url) => url.endsWith("/data_limits")).length;
  const before = probes();
  await jest.advanceTimersByTimeAsync(3 * 3_600_000);
  expect(probes()).toBe(before);
  expect(jest.getTimerCount()).toBe(0);
});

test("signing in after an outage seen before signing out probes again: the outage ends once the service answers", async () => {
  const { engine, pcd } = await signedOutInOutage();
  const condition = () => serviceCondition(engine.serviceState(), engine.authStatus().signedIn);
  // Signed out, nothing calls: the outage seen is told as not being retried.
  expect(condition()).toMatchObject({ kind: "unreachable", retrying: false });
  pcd.mode = "up";
  await engine.signIn("analyst@example.com", "secret");
  // A token answered says nothing of the data service; the next probe does, within 15 minutes.
  expect(condition()).toMatchObject({ kind: "unreachable", retrying: true });
  await jest.advanceTimersByTimeAsync(15 * 60_000);
  expect(condition()).toEqual({ kind: "up", lastAnswerAt: expect.any(Number) });
  expect(pcd.urls.filter((url) => url.endsWith("/data_limits")).length).toBeGreaterThan(0);
});

test("on release day, once the service answered, a 503 is a passing failure: retried, never the release downtime", async () => {
  // Release day (the third business day), 12:00 US Central: the calendar says "down for the release".
  jest.setSystemTime(Date.parse("2026-12-03T18:00:00Z"));
  const { engine, pcd } = await start();
  expect(engine.serviceState()).toMatchObject({ available: false, reason: "release" });
  // The user's refresh reads the catalogs first: they answer, so the release is out.
  expect(await settle(engine.refreshAll())).toMatchObject({ status: "fulfilled" });
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "up" });

  const request = await engine.resolve(CODE, null, null);
  let failed = 0;
  pcd.onRequest = (url) => {
    if (url.includes("/export/series/") && failed++ === 0) pcd.mode = "failing";
    else pcd.mode = "up";
  };
  const outcome = await settle(engine.getSeries(request));
  expect(outcome).toMatchObject({ status: "fulfilled", value: { lastFinal: "2026-09" } });
  expect(pcd.urls.filter((url) => url.includes("/export/series/"))).toHaveLength(2);
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "up" });
});

test.each<[string, string, boolean]>([
  ["a restart after the release came out keeps the service open", "2026-12-03T19:00:00Z", true],
  // A catalog read the day before says nothing of today's release.
  ["a catalog read the day before does not open release day", "2026-12-02T18:00:00Z", false],
])("on release day, %s", async (_case, readAt, open) => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  const storage = new MemoryStorage();
  const engineOn = async (): Promise<Engine> => {
    const engine = createEngine(
      { fetch: pcd.fetch, storage, clock: { now: () => Date.now() } },
      { settings: { baseUrl: BASE_URL, authUrl: AUTH_URL } },
    );
    await engine.ready();
    return engine;
  };
  // The catalogs are read (the service answers) at readAt; Excel restarts at 20:00 UTC on release day.
  jest.setSystemTime(Date.parse(readAt));
  const before = await engineOn();
  const signingIn = before.signIn("analyst@example.com", "secret");
  await jest.advanceTimersByTimeAsync(1_000);
  await signingIn;
  // The user's refresh reads the catalogs first (on release day, the one call PCD makes).
  expect(await settle(before.refreshAll())).toMatchObject({ status: "fulfilled" });
  expect(serviceCondition(before.serviceState()).kind).toBe("up");
  await jest.advanceTimersByTimeAsync(1_000);
  jest.setSystemTime(Date.parse("2026-12-03T20:00:00Z"));
  const after = await engineOn();
  expect(serviceCondition(after.serviceState()).kind).toBe(open ? "up" : "release");
});

test("the outage probe runs on the engine's injected scheduler, not on the host's timers", async () => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  const timers = new HeldTimers();
  const engine = createEngine(
    { fetch: pcd.fetch, storage: new MemoryStorage(), clock: { now: () => Date.now() }, scheduler: timers },
    { settings: { baseUrl: BASE_URL, authUrl: AUTH_URL }, retry: { maxRetries: 0 } },
  );
  await engine.ready();
  await engine.signIn("analyst@example.com", "secret");
  const request = await settle(engine.resolve(CODE, null, null));
  expect(request.status).toBe("fulfilled");
  if (request.status !== "fulfilled") return;
  const realTimers = jest.getTimerCount();
  pcd.mode = "down";
  expect((await settle(engine.getSeries(request.value))).status).toBe("rejected");
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "unreachable" });
  expect(timers.pending.map((timer) => timer.ms)).toContain(OUTAGE_PROBE_DELAYS_MS[0]);
  expect(jest.getTimerCount()).toBeLessThanOrEqual(realTimers);
});

/** A member signed in through a team gateway (the fake's token names one) on a maintenance day, with a code resolved. */
async function gatewayMemberInMaintenance() {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  pcd.tokenClaims = { iss: "pcd-gateway", sub: "ana@team.example" };
  const timers = new HeldTimers();
  jest.setSystemTime(Date.parse("2026-11-25T15:00:00Z"));
  const engine = createEngine(
    { fetch: pcd.fetch, storage: new MemoryStorage(), clock: { now: () => Date.now() }, scheduler: timers },
    { settings: { baseUrl: BASE_URL, authUrl: AUTH_URL }, retry: { maxRetries: 0 } },
  );
  await engine.ready();
  await engine.signIn("ana@team.example", "secret");
  expect(engine.authStatus().gateway).toEqual({ member: "ana@team.example" });
  const resolved = await settle(engine.resolve(CODE, null, null));
  if (resolved.status !== "fulfilled") throw new Error(`${CODE} did not resolve`);
  return { pcd, timers, engine, request: resolved.value };
}

test("through a team gateway in a maintenance window, a gateway that does not answer is told as unreachable and probed, and its return is told", async () => {
  const { pcd, timers, engine, request } = await gatewayMemberInMaintenance();
  // In the window the calls still go to the gateway; it does not answer.
  pcd.mode = "down";
  expect((await settle(engine.getSeries(request))).status).toBe("rejected");
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "unreachable" });
  expect(timers.pending.map((timer) => timer.ms)).toContain(OUTAGE_PROBE_DELAYS_MS[0]);
  // The gateway answers again, still in the window: the waiting cells are told at once.
  let told = 0;
  engine.onServiceBack?.(() => (told += 1));
  pcd.mode = "up";
  jest.setSystemTime(Date.now() + 60_000);
  expect((await settle(engine.getSeries(request))).status).toBe("fulfilled");
  await settle(Promise.resolve());
  expect(told).toBe(1);
  expect(serviceCondition(engine.serviceState())).toMatchObject({
    kind: "maintenance",
    throughGateway: true,
  });
});

test("through a team gateway in a maintenance window, a gateway answering server errors of its own is not back: no cell is woken", async () => {
  const { pcd, engine, request } = await gatewayMemberInMaintenance();
  let told = 0;
  engine.onServiceBack?.(() => (told += 1));
  // No answer, then a server error of the gateway's own, then no answer again.
  for (const mode of ["down", "failing", "down", "failing"] as const) {
    pcd.mode = mode;
    jest.setSystemTime(Date.now() + 60_000);
    expect((await settle(engine.getSeries(request))).status).toBe("rejected");
    await settle(Promise.resolve());
  }
  expect(told).toBe(0);
});

test("through a team gateway in a maintenance window, a 503 of the gateway's own is an outage: told so, and its series asked again once it answers", async () => {
  const { pcd, engine, request } = await gatewayMemberInMaintenance();
  // A 503 without the service's words, and no word from the gateway that the service answered it.
  pcd.mode = "failing";
  const failed = await settle(engine.getSeries(request));
  expect(failed.status === "rejected" && failed.reason).toMatchObject({ kind: "server" });
  expect(serviceCondition(engine.serviceState())).toMatchObject({ kind: "failing", status: 503 });
  // Minutes later, still in the window, the gateway answers again: the series is asked for.
  pcd.mode = "up";
  jest.setSystemTime(Date.now() + 10 * 60_000);
  expect((await settle(engine.getSeries(request))).status).toBe("fulfilled");
  expect(serviceCondition(engine.serviceState())).toMatchObject({
    kind: "maintenance",
    throughGateway: true,
  });
});

test.each([
  [
    "does not answer",
    "down",
    /^Can't reach your team's gateway since \d\d:\d\d UTC \(the PCD service behind it may be up\); /,
  ],
  [
    "answers server errors",
    "failing",
    /^Your team's gateway answers HTTP 503 since \d\d:\d\d UTC: the gateway, or the PCD service behind it, is failing; /,
  ],
] as const)(
  "through a team gateway on an ordinary day, a gateway that %s is told as the gateway's outage, not the service's",
  async (_case, mode, said) => {
    const pcd = fakePcd([
      { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
    ]);
    pcd.tokenClaims = { iss: "pcd-gateway", sub: "ana@team.example" };
    const engine = createEngine(
      {
        fetch: pcd.fetch,
        storage: new MemoryStorage(),
        clock: { now: () => Date.now() },
        scheduler: new HeldTimers(),
      },
      { settings: { baseUrl: BASE_URL, authUrl: AUTH_URL }, retry: { maxRetries: 0 } },
    );
    await engine.ready();
    await engine.signIn("ana@team.example", "secret");
    const resolved = await settle(engine.resolve(CODE, null, null));
    if (resolved.status !== "fulfilled") throw new Error(`${CODE} did not resolve`);
    pcd.mode = mode;
    expect((await settle(engine.getSeries(resolved.value))).status).toBe("rejected");
    const text = serviceConditionText(serviceCondition(engine.serviceState()), Date.now()).text;
    expect(text).toMatch(said);
    expect(text).not.toMatch(/PCD service (is failing|since)|Can't reach the PCD service/);
  },
);
