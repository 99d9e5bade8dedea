// What a member meets at the gateway, against the emulator as the service: sign-in, budgets,
// removed members, downtime, a release, sandbox and Data Limits, and the Developer account
// never showing in anything a member receives.
import { connect } from "node:net";
import { memoryStore, type MemoryStore } from "./support/memory-store";
import {
  catalogOf,
  startService,
  startTeamGateway,
  totalCalls,
  totalDataRequests,
  type ServiceUnderTest,
  upstreamOf,
} from "./support/team";
import type { GatewaySettings, RunningGateway } from "../../src/gateway/gateway-app";
import { STOP_WAIT_MS } from "../../src/gateway/purchase/purchase-queue";
import type { Purchase } from "../../src/gateway/store/gateway-store";
import { until } from "../support/until";
import { manualPackingTimers } from "./support/manual-packing-timers";
import { metricSamples } from "./support/metric-samples";
import { allowancePeriodAt } from "../../src/gateway/members/allowance-period";
import { DEFAULT_RELEASE_BUSINESS_DAY } from "../../src/gateway/members/release-day";

/** The allowance period of an instant, as the gateway under test counts budgets. */

/** The purchase queue's own looks (a few ms) run on real timers; any longer wait, on the test's clock. */
const SHORT_LOOK_MS = 50;
const periodAt = (at: Date) => allowancePeriodAt(at, DEFAULT_RELEASE_BUSINESS_DAY);

const PASSWORD = "correct horse battery staple";

interface LimitsReport {
  [dataset: string]: {
    remaining_requests: number;
    total_requests: number;
    member_budget?: number;
    member_remaining_requests?: number;
  };
}
/** Sign-in attempts per address and name per minute. */
const ATTEMPTS = 8;
/** 15 Nov 2026, 9 am US Central: inside the maintenance window. */
const MAINTENANCE = "2026-11-15T15:00:00Z";
/** 25 Nov 2026, 9 am US Central: the month's other maintenance day, after any clock a test leaves. */
const LATER_MAINTENANCE = "2026-11-25T15:00:00Z";

let service: ServiceUnderTest;
let store: MemoryStore;
let gateway: RunningGateway;
let codes: string[];

/** Signs in at a gateway (this file's unless `url` names another), as `client` says through a front end. */
async function signInAt(
  url: string,
  username: string,
  password = PASSWORD,
  client?: string,
): Promise<Response> {
  return fetch(`${url}/auth/access_token/v1`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(client === undefined ? {} : { "x-forwarded-for": client }),
    },
    body: JSON.stringify({ username, password }),
  });
}

async function signIn(username: string, password = PASSWORD): Promise<Response> {
  return signInAt(gateway.url, username, password);
}

/** A member's token from a gateway of a test's own. */
async function tokenAt(url: string, username: string): Promise<string> {
  return ((await (await signInAt(url, username)).json()) as { access_token: string }).access_token;
}

const tokens = new Map<string, string>();

/** One sign-in per member for the file, as an add-in signs in once per two hours (sign-ins are rate limited). */
async function tokenOf(username: string): Promise<string> {
  const held = tokens.get(username);
  if (held !== undefined) return held;
  const response = await signIn(username);
  expect(response.status).toBe(200);
  const token = ((await response.json()) as { access_token: string }).access_token;
  tokens.set(username, token);
  return token;
}

async function get(
  path: string,
  token: string,
): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const response = await fetch(`${gateway.url}/api${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    text: await response.text(),
    retryAfter: response.headers.get("retry-after"),
  };
}

/** The service as a gateway's upstream, its data calls (Series Values, History) through `dataCall`. */
function upstreamWithDataCalls(dataCall: typeof fetch): GatewaySettings["upstream"] {
  return {
    ...upstreamOf(service),
    fetch: (input, init) =>
      String(input).includes("/export/series/") ? dataCall(input, init) : fetch(input, init),
  };
}

beforeAll(async () => {
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code);
  store = memoryStore();
  await store.members.save("ann@example.com", PASSWORD, { budget: null, admin: true });
  await store.members.save("bob@example.com", PASSWORD, { budget: 2, admin: false });
  await store.members.save("eve@example.com", PASSWORD, { budget: null, admin: false });
  gateway = await startTeamGateway(service, store, {
    domain: "example.com",
    signInAttempts: { max: ATTEMPTS, windowMs: 60_000 },
  });
});

afterAll(async () => {
  await gateway.close();
  await service.close();
});

test("sign-in answers the service's shape with the gateway's own 2-hour token", async () => {
  const response = await signIn("ANN@example.com ");
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, string>;
  expect(Object.keys(body)).toEqual(["access_token"]);
  const claims = JSON.parse(
    Buffer.from(body.access_token?.split(".")[1] ?? "", "base64url").toString(),
  ) as Record<string, number | string>;
  expect(claims.sub).toBe("ann@example.com");
  expect(Number(claims.exp) - Number(claims.iat)).toBe(7200);
});

test.each([
  ["a wrong password", "ann@example.com", "wrong"],
  ["an unknown member", "zed@example.com", PASSWORD],
  ["a member outside the domain", "ann@elsewhere.com", PASSWORD],
])("%s gets 401 and no token", async (_case, username, password) => {
  const response = await signIn(username, password);
  expect(response.status).toBe(401);
  expect(await response.text()).toMatch(/unknown member or wrong password/);
});

test("a blocked member's sign-in gets 403 saying the gateway blocked them, apart from a wrong password", async () => {
  await store.members.setBlocked("eve@example.com", true);
  try {
    const response = await signIn("eve@example.com");
    expect(response.status).toBe(403);
    expect(response.headers.get("pcd-gateway-refusal")).toBe("member-blocked");
    expect(await response.text()).toMatch(/is blocked at this gateway/);
    const wrong = await signIn("eve@example.com", "wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("pcd-gateway-refusal")).toBeNull();
  } finally {
    await store.members.setBlocked("eve@example.com", false);
  }
});

test("sign-in attempts for one name are rate limited", async () => {
  const statuses = [];
  for (let attempt = 0; attempt <= ATTEMPTS; attempt += 1) {
    statuses.push((await signIn("mallory@example.com", "guess")).status);
  }
  expect(statuses).toEqual([...Array<number>(ATTEMPTS).fill(401), 429]);
  const refused = await signIn("mallory@example.com", "guess");
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(await refused.json()).toMatchObject({
    message: expect.stringMatching(/^Too many sign-in attempts: try again in \d+ s\.$/),
  });
  // Another name from the same address is not locked out by it.
  expect((await signIn("ann@example.com")).status).toBe(200);
});

test("attempts that cost no password check share one count per address, so they cannot crowd out a member's", async () => {
  const statuses = [];
  for (let attempt = 0; attempt <= ATTEMPTS; attempt += 1) {
    statuses.push((await signIn(`stranger${attempt}@elsewhere.com`, "guess")).status);
  }
  // Every name differs: only a shared count can end in 429.
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((status) => status === 401 || status === 429)).toBe(true);
  expect((await signIn("eve@example.com")).status).toBe(200);
});

/** The sign-ins a gateway's /metrics counts as refused, by reason. */
async function signInRefusals(url: string): Promise<Record<string, number>> {
  const samples = await metricSamples(url, "pcd_gateway_sign_in_refusals_total");
  return Object.fromEntries(
    [...samples].map(([labels, count]) => [/^reason="([^"]+)"$/.exec(labels)?.[1] ?? labels, count]),
  );
}

/** A gateway of a test's own on a clock that stands still, with ann, bob, cat and dan as members. */
async function signInGateway(settings: Partial<GatewaySettings>): Promise<RunningGateway> {
  const own = memoryStore();
  for (const name of ["ann", "bob", "cat", "dan"]) {
    await own.members.save(`${name}@example.com`, PASSWORD, { budget: null, admin: false });
  }
  const at = Date.parse("2026-11-16T12:00:00Z");
  return startTeamGateway(service, own, { domain: "example.com", now: () => at, ...settings });
}

test("behind a trusted front end, failed password checks are limited per client whatever the names; sign-ins that work cost nothing of it", async () => {
  const limited = await signInGateway({
    trustProxy: ["127.0.0.1"],
    signInAttempts: { max: 2, windowMs: 60_000 },
    failedSignIns: { max: 3, windowMs: 600_000 },
  });
  const [a, b, c] = ["203.0.113.7", "198.51.100.9", "192.0.2.44"];
  try {
    const statuses = async (attempts: Array<[string, string, string]>): Promise<number[]> => {
      const seen = [];
      for (const [client, name, password] of attempts) {
        seen.push((await signInAt(limited.url, `${name}@example.com`, password, client)).status);
      }
      return seen;
    };
    // One name's attempts are counted per client: a's third is refused, b's first is not.
    expect(
      await statuses([
        [a, "bob", "guess"],
        [a, "bob", "guess"],
        [a, "bob", "guess"],
        [b, "bob", "guess"],
      ]),
    ).toEqual([401, 401, 429, 401]);
    // Sign-ins that work, more of them than the failures allowed, leave c's count untouched.
    expect(
      await statuses([
        [c, "ann", PASSWORD],
        [c, "bob", PASSWORD],
        [c, "cat", PASSWORD],
        [c, "dan", PASSWORD],
        [c, "ann", "guess"],
      ]),
    ).toEqual([200, 200, 200, 200, 401]);
    // a's third failure (another name): from then on a is refused, even dan's right password.
    expect(await statuses([[a, "cat", "guess"]])).toEqual([401]);
    const refused = await signInAt(limited.url, "dan@example.com", PASSWORD, a);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("600");
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Too many failed sign-ins from this address: try again in 600 s.",
    );
    // Another client is not held by a's failures.
    expect(await statuses([[b, "dan", PASSWORD]])).toEqual([200]);
    // /metrics tells the administrator which limit refused what.
    expect(await signInRefusals(limited.url)).toEqual({
      "attempts per client and name": 1,
      "failures per client": 1,
    });
  } finally {
    await limited.close();
  }
});

test("checks sent at once are counted before they are made: no more than the limit are made", async () => {
  const limited = await signInGateway({
    trustProxy: ["127.0.0.1"],
    failedSignIns: { max: 3, windowMs: 600_000 },
  });
  try {
    const statuses = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(
        async (index) =>
          (await signInAt(limited.url, `zed${index}@example.com`, "guess", "203.0.113.7")).status,
      ),
    );
    expect(statuses.sort()).toEqual([401, 401, 401, 429, 429, 429]);
  } finally {
    await limited.close();
  }
});

test.each<[string, Partial<GatewaySettings>, string[]]>([
  // case, the gateway's settings, the keys a failed sign-in and a right one count under
  [
    "a gateway that cannot tell its clients apart (no front end given, no TLS): no per-client count",
    {},
    ["127.0.0.1|zed@example.com", "127.0.0.1|ann@example.com"],
  ],
  [
    "front ends given: the client's failures are counted, a right password's check taken back",
    { trustProxy: ["127.0.0.1"] },
    [
      "127.0.0.1|zed@example.com",
      "failed password checks from 127.0.0.1",
      "127.0.0.1|ann@example.com",
      "failed password checks from 127.0.0.1",
      "taken back: failed password checks from 127.0.0.1",
    ],
  ],
])("%s", async (_case, settings, keys) => {
  const own = memoryStore();
  await own.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  const counted: string[] = [];
  const attempts: MemoryStore["attempts"] = {
    count: (key, windowMs, at) => {
      counted.push(key);
      return own.attempts.count(key, windowMs, at);
    },
    uncount: (key, at) => {
      counted.push(`taken back: ${key}`);
      return own.attempts.uncount(key, at);
    },
  };
  const gateway = await startTeamGateway(
    service,
    { ...own, attempts },
    { domain: "example.com", ...settings },
  );
  try {
    expect((await signInAt(gateway.url, "zed@example.com", "guess")).status).toBe(401);
    expect((await signInAt(gateway.url, "ann@example.com")).status).toBe(200);
    expect(counted).toEqual(keys);
  } finally {
    await gateway.close();
  }
});

test.each<[string, (key: string) => boolean]>([
  // case, which counts the database refuses
  ["the count of a client's failures", (key) => key.startsWith("failed password checks")],
  ["every count (the limit per client and name's first)", () => true],
])(
  "a database that cannot count %s: the sign-in is refused with 503, without the database's words, and /metrics counts it",
  async (_case, refuses) => {
    const own = memoryStore();
    await own.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
    const attempts: MemoryStore["attempts"] = {
      count: (key, windowMs, at) =>
        refuses(key)
          ? Promise.reject(new Error('relation "sign_in_attempts" does not exist at 10.0.0.5:5432'))
          : own.attempts.count(key, windowMs, at),
      uncount: (key, at) => own.attempts.uncount(key, at),
    };
    const gateway = await startTeamGateway(
      service,
      { ...own, attempts },
      { domain: "example.com", trustProxy: ["127.0.0.1"] },
    );
    try {
      const refused = await signInAt(gateway.url, "ann@example.com");
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        message: "The gateway's database could not count this sign-in attempt: try again shortly.",
      });
      expect(await signInRefusals(gateway.url)).toEqual({ "not counted": 1 });
    } finally {
      await gateway.close();
    }
  },
);

test("without a trusted front end, a forwarded address is not believed: naming other clients does not escape the limit", async () => {
  const direct = await signInGateway({ failedSignIns: { max: 3, windowMs: 600_000 } });
  try {
    const statuses = [];
    for (const [index, name] of ["ann", "bob", "cat", "dan"].entries()) {
      statuses.push(
        (await signInAt(direct.url, `${name}@example.com`, "guess", `203.0.113.${index}`)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  } finally {
    await direct.close();
  }
});

test("a member over their budget gets the service's quota answer naming the budget; another member carries on", async () => {
  const bob = await tokenOf("bob@example.com");
  const within = await get(`/energy_price/v1/export/series/${codes[40]},${codes[41]}`, bob);
  expect(within.status).toBe(200);
  const over = await get(`/energy_price/v1/export/series/${codes[42]}`, bob);
  expect(over.status).toBe(403);
  expect(over.text).toMatch(
    /Quota limit reached for member bob@example\.com: until \d{4}-\d{2}-\d{2} the gateway's budget of 2 data requests/,
  );
  // What bob already bought costs him nothing more.
  expect((await get(`/energy_price/v1/export/series/${codes[40]}`, bob)).status).toBe(200);
  const ann = await tokenOf("ann@example.com");
  expect((await get(`/energy_price/v1/export/series/${codes[42]}`, ann)).status).toBe(200);
});

test("two requests of one member at once cannot buy past the budget together", async () => {
  await store.members.save("gus@example.com", PASSWORD, { budget: 2, admin: false });
  const gus = await tokenOf("gus@example.com");
  const records = await catalogOf(service, "energy_price");
  const dataset = records[70]?.coverage;
  const fresh = records
    .slice(70)
    .filter((record) => record.coverage === dataset)
    .map((record) => record.code);
  expect(fresh.length).toBeGreaterThanOrEqual(4);
  const before = totalDataRequests(await service.stats());
  const answers = await Promise.all([
    get(`/energy_price/v1/export/series/${fresh[0]},${fresh[1]}`, gus),
    get(`/energy_price/v1/export/series/${fresh[2]},${fresh[3]}`, gus),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
  expect(answers.find((answer) => answer.status === 403)?.text).toMatch(
    /until \d{4}-\d{2}-\d{2} the gateway's budget of 2 data requests for dataset '[^']+' has 0 left; this request needs 2/,
  );
  expect(totalDataRequests(await service.stats()) - before).toBe(2);
});

test("Data Limits is the team's allowance from the service, with the member's own budget beside it", async () => {
  const bob = await tokenOf("bob@example.com");
  const report = JSON.parse((await get("/energy_price/v1/data_limits", bob)).text) as LimitsReport;
  const dataset = Object.values(report).find((limits) => limits.member_budget !== undefined);
  expect(dataset).toMatchObject({ member_budget: 2 });
  expect(Object.values(report).some((limits) => limits.remaining_requests < limits.total_requests)).toBe(
    true,
  );
  const ann = await tokenOf("ann@example.com");
  const annReport = JSON.parse((await get("/energy_price/v1/data_limits", ann)).text) as LimitsReport;
  expect(Object.values(annReport).every((limits) => !("member_budget" in limits))).toBe(true);
});

test("Data Limits told within its 30 s already counts what the gateway bought since, without another call", async () => {
  const ann = await tokenOf("ann@example.com");
  const remaining = (report: LimitsReport): number =>
    Object.values(report).reduce((sum, limits) => sum + limits.remaining_requests, 0);
  const before = JSON.parse((await get("/energy_price/v1/data_limits", ann)).text) as LimitsReport;
  const limitsCalls = (await service.stats()).calls.data_limits ?? 0;
  const bought = await get(`/energy_price/v1/export/series/${codes[50]},${codes[51]},${codes[52]}`, ann);
  expect(bought.status).toBe(200);
  const after = JSON.parse((await get("/energy_price/v1/data_limits", ann)).text) as LimitsReport;
  expect(remaining(before) - remaining(after)).toBe(3);
  expect((await service.stats()).calls.data_limits ?? 0).toBe(limitsCalls);
});

test("Data Limits counts what a member's requests in flight hold of their budget", async () => {
  await store.members.save("hal@example.com", PASSWORD, { budget: 10, admin: false });
  const hal = await tokenOf("hal@example.com");
  const limits = async () =>
    JSON.parse((await get("/energy_price/v1/data_limits", hal)).text) as LimitsReport;
  const [dataset = "", other = ""] = Object.keys(await limits());
  const now = service.now();
  const hold = await store.holds.hold({
    member: "hal@example.com",
    product: "energy_price",
    budget: 10,
    needed: new Map([[dataset, 4]]),
    at: new Date(now),
    period: periodAt(new Date(now)),
    expiresAt: new Date(now + 60_000),
  });
  if (!("held" in hold)) throw new Error("the hold was refused");
  const during = await limits();
  expect(during[dataset]).toMatchObject({ member_budget: 10, member_remaining_requests: 6 });
  expect(during[other]).toMatchObject({ member_budget: 10, member_remaining_requests: 10 });
  await store.holds.release(hold.held);
  expect((await limits())[dataset]).toMatchObject({ member_remaining_requests: 10 });
});

test("a gateway that stops releases what its requests in flight hold of members' budgets", async () => {
  const own = memoryStore();
  await own.members.save("ida@example.com", PASSWORD, { budget: 5, admin: false });
  let dataCallSent: () => void = () => undefined;
  const dataCall = new Promise<void>((resolve) => (dataCallSent = resolve));
  const heldCalls: Array<() => void> = [];
  // The service never answers the data call until the test lets it fail; the stop's wait for it
  // is over when the test says so.
  const stopWait = manualPackingTimers(0);
  let stopWaits: () => void = () => undefined;
  const stopWaiting = new Promise<void>((resolve) => (stopWaits = resolve));
  const stopping = await startTeamGateway(service, own, {
    upstream: upstreamWithDataCalls(() => {
      dataCallSent();
      return new Promise((_resolve, reject) => heldCalls.push(() => reject(new Error("cut off"))));
    }),
    // No packing wait (a lone member's call goes at once): the queue's few-millisecond looks run on
    // real timers; the stop's wait, on the test's clock.
    packingWindowMs: 0,
    packingSoloWindowMs: 0,
    later: (run, ms) => {
      if (ms < SHORT_LOOK_MS) return void setTimeout(run, ms);
      if (ms === STOP_WAIT_MS) stopWaits();
      stopWait.later(run, ms);
    },
    refusedAuditRows: {
      waiting: () => undefined,
      written: () => undefined,
      lost: () => undefined,
      cutOff: () => undefined,
    },
  });
  const ida = await tokenAt(stopping.url, "ida@example.com");
  const asked = fetch(`${stopping.url}/api/energy_price/v1/export/series/${codes[90]},${codes[91]}`, {
    headers: { authorization: `Bearer ${ida}` },
  }).catch(() => null);
  await dataCall;
  // What ida's holds hold, all datasets together: the request's two codes while it waits.
  const heldNow = async () =>
    [...(await own.holds.heldBy("ida@example.com", "energy_price", new Date(service.now()))).values()].reduce(
      (sum, count) => sum + count,
      0,
    );
  expect(await heldNow()).toBe(2);
  const closed = stopping.close();
  await stopWaiting;
  stopWait.advance(STOP_WAIT_MS);
  await closed;
  expect(await heldNow()).toBe(0);
  for (const fail of heldCalls) fail();
  await asked;
});

test("a request's purchase stops counting in its hold once audited: the member is not refused while the request's other call is out", async () => {
  const own = memoryStore();
  await own.members.save("bob@example.com", PASSWORD, { budget: 4, admin: false });
  let slowSent: () => void = () => undefined;
  const slow = new Promise<void>((resolve) => (slowSent = resolve));
  let answerSlow: () => void = () => undefined;
  const answering = new Promise<void>((resolve) => (answerSlow = resolve));
  // The call for the code in currency 3 waits until the test lets it go.
  const team = await startTeamGateway(service, own, {
    upstream: upstreamWithDataCalls(async (input, init) => {
      if (String(input).includes("c=3")) {
        slowSent();
        await answering;
      }
      return fetch(input, init);
    }),
  });
  try {
    const token = await tokenAt(team.url, "bob@example.com");
    const ask = async (path: string) => {
      const response = await fetch(`${team.url}/api${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, text: await response.text() };
    };
    const records = await catalogOf(service, "energy_price");
    const dataset = records[200]?.coverage ?? "";
    const [one = "", two = "", three = ""] = records
      .slice(200)
      .filter((record) => record.coverage === dataset)
      .map((record) => record.code);
    // One code in two currencies: two keys, two calls.
    const first = ask(`/energy_price/v1/export/series/${one}&c=1,${one}&c=3`);
    await slow;
    await until(
      () => own.purchases.length,
      (count) => count >= 1,
      "the first call's purchase in the audit",
    );
    // Bought 1, 1 more in flight: 2 of 4 left, and this request needs 2.
    const second = await ask(`/energy_price/v1/export/series/${two},${three}`);
    expect(second.status).toBe(200);
    answerSlow();
    expect((await first).status).toBe(200);
    const at = new Date(service.now());
    expect(await own.audit.purchasedBy("bob@example.com", "energy_price", dataset, periodAt(at))).toBe(4);
    expect(await own.holds.heldBy("bob@example.com", "energy_price", at)).toEqual(new Map());
  } finally {
    answerSlow();
    await team.close();
  }
});

test("keys another member is buying cost a member nothing of their budget: joined, not held", async () => {
  const own = memoryStore();
  await own.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  await own.members.save("jo@example.com", PASSWORD, { budget: 2, admin: false });
  let dataCallSent: () => void = () => undefined;
  const dataCall = new Promise<void>((resolve) => (dataCallSent = resolve));
  let answerDataCall: () => void = () => undefined;
  const answering = new Promise<void>((resolve) => (answerDataCall = resolve));
  // The service answers ann's data call once the test lets it.
  const team = await startTeamGateway(service, own, {
    upstream: upstreamWithDataCalls(async (input, init) => {
      dataCallSent();
      await answering;
      return fetch(input, init);
    }),
  });
  try {
    const ask = async (path: string, token: string) => {
      const response = await fetch(`${team.url}/api${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, text: await response.text() };
    };
    const joined = async (): Promise<number> =>
      (await metricSamples(team.url, "pcd_gateway_coalesced_requests_total")).get("") ?? 0;
    const records = await catalogOf(service, "energy_price");
    const dataset = records[100]?.coverage ?? "";
    const three = records
      .slice(100)
      .filter((record) => record.coverage === dataset)
      .slice(0, 3)
      .map((record) => record.code);
    expect(three).toHaveLength(3);
    const [ann, jo] = await Promise.all([
      tokenAt(team.url, "ann@example.com"),
      tokenAt(team.url, "jo@example.com"),
    ]);
    const annAsked = ask(`/energy_price/v1/export/series/${three.join(",")}`, ann);
    await dataCall;
    // Three keys over jo's budget of two, one of them asked twice: all of them ann's purchase.
    let joAnswer: { status: number; text: string } | undefined;
    const joAsked = ask(`/energy_price/v1/export/series/${[...three, three[0]].join(",")}`, jo).then(
      (answer) => (joAnswer = answer),
    );
    await until(
      async () => ({ joined: await joined(), jo: joAnswer?.status }),
      (seen) => seen.joined >= 3 || seen.jo !== undefined,
      "jo's request to join ann's purchase (or to be answered)",
    );
    expect(joAnswer).toBeUndefined();
    answerDataCall();
    const [annAnswer, joAnswered] = await Promise.all([annAsked, joAsked]);
    expect(annAnswer.status).toBe(200);
    expect(joAnswered.status).toBe(200);
    expect((JSON.parse(joAnswered.text) as unknown[]).length).toBe(3);
    const at = new Date(service.now());
    expect(await own.audit.purchasedBy("ann@example.com", "energy_price", dataset, periodAt(at))).toBe(3);
    expect(await own.audit.purchasedBy("jo@example.com", "energy_price", dataset, periodAt(at))).toBe(0);
    // The answers served: ann's bought, jo's as from the cache (they cost jo nothing).
    const servedTo = async (member: string) =>
      (
        await until(
          () => own.served.filter((row) => row.member === member),
          (rows) => rows.length >= 3,
          `the answers served to ${member} in the audit`,
        )
      ).map((row) => row.source);
    expect(await servedTo("ann@example.com")).toEqual(["purchase", "purchase", "purchase"]);
    expect(await servedTo("jo@example.com")).toEqual(["cache", "cache", "cache"]);
    expect(
      (await own.audit.usage(periodAt(at))).find((row) => row.member === "jo@example.com"),
    ).toMatchObject({
      purchased: 0,
      fromCache: 3,
    });
  } finally {
    answerDataCall();
    await team.close();
  }
});

test("a purchase whose audit row the database refused counts against the budget until the row is written; each refused row is reported as it waits, when written and when still refused at the stop", async () => {
  const own = memoryStore();
  await own.members.save("kim@example.com", PASSWORD, { budget: 3, admin: false });
  let refusing = true;
  const audit = {
    ...own.audit,
    recordPurchase: (purchase: Purchase) =>
      refusing ? Promise.reject(new Error("connection terminated")) : own.audit.recordPurchase(purchase),
  };
  // No packing wait: the queue's few-millisecond looks run on real timers; the audit's retries
  // (5 s and more) wait for the test.
  const retries = manualPackingTimers(0);
  /** What the gateway reported of refused rows, in order: the event and the row's codes. */
  const reports: Array<[string, string[]]> = [];
  const codesOf = (purchase: Purchase): string[] => purchase.codes.map(({ code }) => code);
  const team = await startTeamGateway(
    service,
    { ...own, audit },
    {
      packingWindowMs: 0,
      packingSoloWindowMs: 0,
      packingMaxWaitMs: 0,
      later: (run, ms) => (ms < SHORT_LOOK_MS ? void setTimeout(run, ms) : retries.later(run, ms)),
      refusedAuditRows: {
        waiting: (purchase) => reports.push(["waiting", codesOf(purchase)]),
        written: (purchase) => reports.push(["written", codesOf(purchase)]),
        lost: (purchases) => purchases.forEach((purchase) => reports.push(["lost", codesOf(purchase)])),
        cutOff: (calls) => calls.forEach((call) => reports.push(["cut off", codesOf(call)])),
      },
    },
  );
  let closed = false;
  try {
    const kim = await tokenAt(team.url, "kim@example.com");
    const ask = async (codesAsked: readonly string[]) => {
      const response = await fetch(`${team.url}/api/energy_price/v1/export/series/${codesAsked.join(",")}`, {
        headers: { authorization: `Bearer ${kim}` },
      });
      return { status: response.status, text: await response.text() };
    };
    const records = await catalogOf(service, "energy_price");
    const dataset = records[120]?.coverage ?? "";
    const five = records
      .slice(120)
      .filter((record) => record.coverage === dataset)
      .slice(0, 5)
      .map((record) => record.code);
    expect(five).toHaveLength(5);
    const at = () => new Date(service.now());
    const held = async () =>
      (await own.holds.heldBy("kim@example.com", "energy_price", at())).get(dataset) ?? 0;

    // Two of kim's three bought; the database refuses their audit row: the hold stays, and the
    // row is reported at once (a crash would lose it from memory).
    expect((await ask(five.slice(0, 2))).status).toBe(200);
    expect(await own.audit.purchasedBy("kim@example.com", "energy_price", dataset, periodAt(at()))).toBe(0);
    expect(await held()).toBe(2);
    expect(reports).toEqual([["waiting", five.slice(0, 2)]]);
    const over = await ask(five.slice(2, 4));
    expect(over.status).toBe(403);
    expect(over.text).toMatch(
      /until \d{4}-\d{2}-\d{2} the gateway's budget of 3 data requests for dataset '[^']+' has 1 left; this request needs 2/,
    );

    // The database takes rows again: the retry writes the row, and the hold goes.
    refusing = false;
    retries.advance(5_000);
    await until(held, (count) => count === 0, "kim's hold released once the audit row is written");
    expect(await own.audit.purchasedBy("kim@example.com", "energy_price", dataset, periodAt(at()))).toBe(2);
    expect(reports.at(-1)).toEqual(["written", five.slice(0, 2)]);
    expect((await ask(five.slice(2, 4))).status).toBe(403);

    // The last of the budget, bought while the database refuses again and still refused at the stop.
    refusing = true;
    expect((await ask(five.slice(4, 5))).status).toBe(200);
    await team.close();
    closed = true;
    expect(reports).toEqual([
      ["waiting", five.slice(0, 2)],
      ["written", five.slice(0, 2)],
      ["waiting", five.slice(4, 5)],
      ["lost", five.slice(4, 5)],
    ]);
    expect(await held()).toBe(0);
  } finally {
    if (!closed) await team.close();
  }
});

test("a removed member's token stops working at once", async () => {
  const eve = await tokenOf("eve@example.com");
  expect((await get("/energy_price/v1/export/series", eve)).status).toBe(200);
  await store.members.remove("eve@example.com");
  const refused = await get("/energy_price/v1/export/series", eve);
  expect(refused.status).toBe(401);
});

test.each<[string, () => Promise<unknown>, string]>([
  [
    "a new password",
    () => store.members.save("fay@example.com", "a new password", { budget: null, admin: false }),
    "a new password",
  ],
  [
    "removed and added again",
    async () => {
      await store.members.remove("fay@example.com");
      await store.members.save("fay@example.com", PASSWORD, { budget: null, admin: false });
    },
    PASSWORD,
  ],
])("a member's token issued before %s is refused; a new sign-in works", async (_case, change, password) => {
  await store.members.save("fay@example.com", PASSWORD, { budget: null, admin: false });
  const before = ((await (await signIn("fay@example.com")).json()) as { access_token: string }).access_token;
  expect((await get("/energy_price/v1/export/series", before)).status).toBe(200);
  await change();
  expect((await get("/energy_price/v1/export/series", before)).status).toBe(401);
  const after = await signIn("fay@example.com", password);
  expect(after.status).toBe(200);
  const token = ((await after.json()) as { access_token: string }).access_token;
  expect((await get("/energy_price/v1/export/series", token)).status).toBe(200);
  await store.members.remove("fay@example.com");
});

test.each([
  ["no token", ""],
  ["a token of the service itself", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"],
])("%s is refused with 401", async (_case, token) => {
  expect((await get("/energy_price/v1/export/series", token)).status).toBe(401);
});

test("sandbox calls are relayed and never kept with live data", async () => {
  const ann = await tokenOf("ann@example.com");
  const keptBefore = store.kept.size;
  const sandbox = await get(`/energy_price/v1/sandbox/export/series/${codes[50]}`, ann);
  expect(sandbox.status).toBe(200);
  const [record] = JSON.parse(sandbox.text) as Array<{ series_final_values: Array<{ value: number }> }>;
  expect(record?.series_final_values.every((point) => point.value < 0)).toBe(true);
  expect(store.kept.size).toBe(keptBefore);
  const live = JSON.parse(
    (await get(`/energy_price/v1/export/series/${codes[50]}`, ann)).text,
  ) as (typeof record)[];
  expect(live[0]?.series_final_values.some((point) => point.value > 0)).toBe(true);
});

/** A GET sent as typed over a socket (fetch would tidy the path before sending it). */
async function rawGet(path: string, token: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(gateway.url);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `GET /api${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), text: body };
}

test.each([
  ["a path that climbs out of the sandbox", (code: string) => `..\\..\\..\\export\\series\\${code}`],
  [
    "a path that climbs with encoded backslashes",
    (code: string) => `..%5C..%5C..%5Cexport%5Cseries%5C${code}`,
  ],
  ["words the service might repeat", () => "Summer2025|Winter2026"],
])("a sandbox call with %s is refused by the gateway and reaches no one", async (_case, segment) => {
  const ann = await tokenOf("ann@example.com");
  const before = await service.stats();
  const answer = await rawGet(`/energy_price/v1/sandbox/export/series/${segment(codes[52] ?? "")}`, ann);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text)).toEqual({ message: expect.stringMatching(/is not an assessment code/) });
  const after = await service.stats();
  expect(after.calls).toEqual(before.calls);
  expect(totalDataRequests(after)).toBe(totalDataRequests(before));
});

test("a sandbox call's codes and options reach the service as the gateway reads them", async () => {
  const ann = await tokenOf("ann@example.com");
  const answer = await get(`/energy_price/v1/sandbox/export/series/${codes[53]}&c=003,${codes[54]}`, ann);
  expect(answer.status).toBe(200);
  const records = JSON.parse(answer.text) as Array<{ series_final_values: Array<{ value: number }> }>;
  expect(records).toHaveLength(2);
  expect(records.every((record) => record.series_final_values.every((point) => point.value < 0))).toBe(true);
});

test.each<[string, "data_limits" | "series_values" | "series_info", (code: string) => string]>([
  // case, the operation the service's front end answers 504, the member's path
  ["Data Limits", "data_limits", () => "/energy_price/v1/data_limits"],
  [
    "a sandbox Series Values call",
    "series_values",
    (code) => `/energy_price/v1/sandbox/export/series/${code}`,
  ],
  ["sandbox Series Info", "series_info", () => "/energy_price/v1/sandbox/export/series"],
])(
  "%s that the service's front end answers 504 reaches members as a 502: no call that may have been charged",
  async (_case, operation, path) => {
    // A gateway of the test's own: nothing it keeps (Data Limits, say) answers instead of the service.
    const own = memoryStore();
    await own.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
    const team = await startTeamGateway(service, own);
    try {
      const token = await tokenAt(team.url, "ann@example.com");
      await service.admin("POST", "faults", { operation, mode: "status", status: 504, count: 1 });
      const response = await fetch(`${team.url}/api${path(codes[55] ?? "")}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(502);
      expect(response.headers.get("pcd-service-status")).toBe("504");
    } finally {
      // A fault the call did not use must not answer another test's.
      await fetch(`${service.emulator.url}/__admin/faults`, { method: "DELETE" });
      await team.close();
    }
  },
);

test("during maintenance kept answers are served; an uncached key gets the service's downtime answer, and for a minute no call reaches the service", async () => {
  const ann = await tokenOf("ann@example.com");
  const kept = `/energy_price/v1/export/series/${codes[60]}`;
  expect((await get(kept, ann)).status).toBe(200);
  await service.setClock(MAINTENANCE);
  try {
    // Days later: the member's token has expired, so the member signs in again (the gateway can, the service cannot).
    tokens.clear();
    const later = await tokenOf("ann@example.com");
    const before = totalDataRequests(await service.stats());
    expect((await get(kept, later)).status).toBe(200);
    const uncached = await get(`/energy_price/v1/export/series/${codes[61]}`, later);
    expect(uncached.status).toBe(503);
    expect(uncached.text).toMatch(/maintenance/i);
    expect(uncached.retryAfter).not.toBeNull();
    expect(totalDataRequests(await service.stats())).toBe(before);
    // Within the minute no call reaches the service, whatever is asked: the answer says why,
    // and /metrics counts no upstream call.
    const callsBefore = totalCalls(await service.stats());
    const upstreamCalls = async () =>
      [...(await metricSamples(gateway.url, "pcd_gateway_upstream_calls_total")).values()].reduce(
        (sum, count) => sum + count,
        0,
      );
    const countedBefore = await upstreamCalls();
    for (const path of [`/energy_price/v1/export/series/${codes[63]}`, "/energy_price/v1/data_limits"]) {
      const held = await get(path, later);
      expect(held.status).toBe(503);
      expect(held.text).toMatch(/down for maintenance: .*asks it again at most once a minute/);
    }
    expect(totalCalls(await service.stats())).toBe(callsBefore);
    expect(await upstreamCalls()).toBe(countedBefore);
  } finally {
    await service.setClock("2026-11-16T15:00:00Z");
    tokens.clear();
  }
});

test("once the service said it is down, a request that needs a purchase is answered at once, not kept waiting to be packed", async () => {
  const packing = manualPackingTimers(0);
  const team = await startTeamGateway(service, store, { later: packing.later, elapsed: packing.now });
  const ask = async (code?: string) =>
    fetch(`${team.url}/api/energy_price/v1/export/series${code === undefined ? "" : `/${code}`}`, {
      headers: { authorization: `Bearer ${await tokenAt(team.url, "ann@example.com")}` },
    });
  // The gateway reads the catalog while the service is up.
  expect((await ask()).status).toBe(200);
  await service.setClock(LATER_MAINTENANCE);
  try {
    tokens.clear();
    // Its catalog due again, the gateway heard from the service that it is down (its sign-in's
    // 503) and kept its copy: the request is answered with no packing wait set (none would ever
    // end here).
    const pendingBefore = packing.pending();
    let answered: number | null = null;
    // (A request left waiting fails when the gateway closes: that failure is the assertion's.)
    ask(codes[64]).then(
      (response) => (answered = response.status),
      () => undefined,
    );
    const seen = await until(
      () => ({ answered, pending: packing.pending() }),
      (now) => now.answered !== null || now.pending > pendingBefore,
      "the answer, or a packing wait",
    );
    expect(seen).toEqual({ answered: 503, pending: pendingBefore });
  } finally {
    await service.setClock("2026-11-16T15:00:00Z");
    await team.close();
    tokens.clear();
  }
});

test("a gateway started during maintenance serves what it keeps against the catalog it saved, and asks the service at most once a minute", async () => {
  const ann = await tokenOf("ann@example.com");
  const kept = `/energy_price/v1/export/series/${codes[62]}`;
  expect((await get(kept, ann)).status).toBe(200);
  const calls: string[] = [];
  const restarted = await startTeamGateway(service, store, {
    upstream: upstreamWithDataCalls((input, init) => fetch(input, init)),
  });
  const countingFetch: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  const emptyStore = memoryStore();
  await emptyStore.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  const withoutSaved = await startTeamGateway(service, emptyStore, {
    upstream: { ...upstreamWithDataCalls((input, init) => fetch(input, init)), fetch: countingFetch },
  });
  await service.setClock(MAINTENANCE);
  try {
    const ask = async (url: string, path: string) =>
      fetch(`${url}/api${path}`, {
        headers: { authorization: `Bearer ${await tokenAt(url, "ann@example.com")}` },
      });
    const before = totalDataRequests(await service.stats());
    const served = await ask(restarted.url, kept);
    expect(served.status).toBe(200);
    expect(((await served.json()) as unknown[]).length).toBe(1);
    expect(totalDataRequests(await service.stats())).toBe(before);
    // A gateway with no saved copy answers the service's downtime, and does not ask again within the minute.
    const first = await ask(withoutSaved.url, kept);
    expect(first.status).toBe(503);
    const asked = calls.length;
    const second = await ask(withoutSaved.url, kept);
    expect(second.status).toBe(503);
    expect(calls.length).toBe(asked);
  } finally {
    await service.setClock("2026-11-16T15:00:00Z");
    await restarted.close();
    await withoutSaved.close();
    tokens.clear();
  }
});

test("Series Info says when the gateway read the copy it answers with from the service", async () => {
  // A gateway of its own: it reads the catalog for this request, at this clock.
  const own = memoryStore();
  await own.members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
  const team = await startTeamGateway(service, own);
  try {
    const token = await tokenAt(team.url, "ann@example.com");
    const before = service.now();
    const response = await fetch(`${team.url}/api/energy_price/v1/export/series`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const after = service.now();
    expect(response.status).toBe(200);
    const readAt = Date.parse(response.headers.get("pcd-catalog-read-at") ?? "");
    expect(readAt).toBeGreaterThanOrEqual(before);
    expect(readAt).toBeLessThanOrEqual(after);
  } finally {
    await team.close();
    tokens.clear();
  }
});

test("nothing a member receives carries the Developer account", async () => {
  const ann = await tokenOf("ann@example.com");
  const texts = [
    (await get("/energy_price/v1/export/series", ann)).text,
    (await get(`/energy_price/v1/export/series/${codes[0]}`, ann)).text,
    (await get("/energy_price/v1/data_limits", ann)).text,
    await (await fetch(`${gateway.url}/metrics`)).text(),
  ];
  for (const text of texts) {
    expect(text).not.toContain(service.emulator.password);
    expect(text).not.toContain(service.emulator.username);
  }
});

test("/metrics counts upstream calls, charged data requests by dataset, cache hits and members' requests", async () => {
  const ann = await tokenOf("ann@example.com");
  const pathname = `/energy_price/v1/export/series/${codes[70]}`;
  await get(pathname, ann);
  await get(pathname, ann);
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  expect(text).toMatch(
    /pcd_gateway_upstream_calls_total\{operation="series_values",product="energy_price"\} \d+/,
  );
  expect(text).toMatch(
    /pcd_gateway_upstream_data_requests_total\{operation="series_values",product="energy_price",dataset="[^"]+"\} \d+/,
  );
  expect(text).toMatch(
    /pcd_gateway_cache_hits_total\{operation="series_values",product="energy_price"\} [1-9]/,
  );
  expect(text).toMatch(
    /pcd_gateway_member_requests_total\{member="ann@example.com",operation="series_values"\} [1-9]/,
  );
  expect(text).toMatch(/pcd_gateway_request_duration_seconds_bucket/);
  expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
});
