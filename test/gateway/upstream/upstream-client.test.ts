// The gateway's connection to the service, against a scripted fetch: one token for everyone,
// renewed once after a 401, never sent across a redirect, and the account never in what it relays
// (a refusal is told in the gateway's words).
import {
  Upstream,
  UpstreamCutOff,
  UpstreamSignInError,
  UpstreamTimeout,
  type UpstreamSettings,
} from "../../../src/gateway/upstream/upstream-client";
import { withoutCredentials } from "../../../src/gateway/upstream/upstream-credentials";
import { makeJwt } from "../../core/http/fake-fetch";
import type { GatewayOperation } from "../../../src/gateway/gateway-operation";

const credentials = { username: "developer@company.example", password: "s3cret-Pa55" };

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch answering from a script of responses, in order, recording what was sent. */
function scriptedFetch(answers: Array<() => Response>) {
  const sent: Sent[] = [];
  const fetchLike = async (input: string | URL | Request, init: RequestInit = {}) => {
    sent.push({ url: String(input), init });
    const next = answers.shift();
    if (next === undefined) throw new Error(`No scripted answer for ${String(input)}`);
    return next();
  };
  return { sent, fetch: fetchLike as typeof fetch };
}

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The gateway's client of a service at service.example, its clock at 0 unless `settings` say otherwise. */
function upstream(fetchLike: typeof fetch, settings: Partial<UpstreamSettings> = {}) {
  return new Upstream({
    base: "https://service.example/api",
    auth: "https://service.example/auth",
    credentials,
    fetch: fetchLike,
    now: () => 0,
    ...settings,
  });
}

test("one sign-in serves many calls; the token rides on each call and no call follows a redirect", async () => {
  const script = scriptedFetch([json(200, { access_token: "t1" }), json(200, []), json(200, [])]);
  const client = upstream(script.fetch);
  await client.get("/energy_price/v1/export/series", "series_info");
  await client.get("/energy_price/v1/data_limits", "data_limits");
  expect(script.sent.map((call) => call.url)).toEqual([
    "https://service.example/auth/access_token/v1",
    "https://service.example/api/energy_price/v1/export/series",
    "https://service.example/api/energy_price/v1/data_limits",
  ]);
  for (const call of script.sent) expect(call.init.redirect).toBe("error");
  expect((script.sent[1]?.init.headers as Record<string, string>).authorization).toBe("Bearer t1");
});

test("a refused token is renewed once and the call repeated once", async () => {
  const script = scriptedFetch([
    json(200, { access_token: "old" }),
    json(401, { message: "Invalid access token" }),
    json(200, { access_token: "new" }),
    json(200, [{ code: "1-1-1" }]),
  ]);
  const answer = await upstream(script.fetch).get("/energy_price/v1/export/series/1-1-1", "series_values");
  expect(answer.status).toBe(200);
  expect((script.sent[3]?.init.headers as Record<string, string>).authorization).toBe("Bearer new");
});

test.each<[string, number, string, number, string]>([
  [
    "the account refused, its password echoed JSON-escaped",
    401,
    JSON.stringify({ message: `Invalid credentials for ${credentials.username} with password Tr0ub"dor\\3` }),
    502,
    "The gateway could not sign in to the service with its account (HTTP 401): tell the gateway's administrator.",
  ],
  [
    "the account forbidden, its name in another case",
    403,
    JSON.stringify({ message: `${credentials.username.toUpperCase()} has no Developer role` }),
    502,
    "The gateway could not sign in to the service with its account (HTTP 403): tell the gateway's administrator.",
  ],
  [
    "a maintenance",
    503,
    JSON.stringify({ message: "Scheduled maintenance until 22:00 CT" }),
    503,
    "The service is down for maintenance: its sign-in answered the gateway HTTP 503.",
  ],
  ["a failure", 500, "oops", 500, "The service is failing: its sign-in answered the gateway HTTP 500."],
  [
    "the rate",
    429,
    JSON.stringify({ message: `slow down ${credentials.username}` }),
    429,
    "The service is limiting the gateway's sign-ins to it (HTTP 429): try again later.",
  ],
])(
  "a refused sign-in (%s) reaches members in the gateway's own words",
  async (_case, status, body, relayed, message) => {
    const script = scriptedFetch([
      () =>
        new Response(body, { status, headers: { "content-type": "application/json", "retry-after": "60" } }),
    ]);
    const failure = await upstream(script.fetch)
      .get("/energy_price/v1/export/series", "series_info")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamSignInError);
    const { answer } = failure as UpstreamSignInError;
    expect(answer).toEqual({
      status: relayed,
      body: JSON.stringify({ message }),
      contentType: "application/json; charset=utf-8",
      retryAfter: relayed === 502 ? null : "60",
      // The service answered it: a 503 in a window is then its downtime to members' add-ins.
      serviceStatus: status,
    });
    expect((failure as Error).message).not.toContain(credentials.username);
  },
);

test("a sign-in the service's front end answers 504 reaches members as a 502: no data call left", async () => {
  const script = scriptedFetch([() => new Response("Gateway Timeout", { status: 504 })]);
  const failure = await upstream(script.fetch)
    .get("/energy_price/v1/export/series/1-1-1", "series_values")
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(UpstreamSignInError);
  expect((failure as UpstreamSignInError).answer).toMatchObject({
    status: 502,
    body: JSON.stringify({ message: "The service is failing: its sign-in answered the gateway HTTP 504." }),
    serviceStatus: 504,
  });
});

test("a refused data call reaches members in the gateway's words: no spelling of the account, nor the token", async () => {
  const echo = `Quota limit reached for dataset 'Germany' (${credentials.username.toUpperCase()}, ${JSON.stringify(credentials.password)}, token t1)`;
  const script = scriptedFetch([
    json(200, { access_token: "t1" }),
    () =>
      new Response(JSON.stringify({ message: echo }), {
        status: 403,
        headers: { "content-type": "text/plain", "retry-after": `60 ${credentials.username}` },
      }),
  ]);
  const answer = await upstream(script.fetch).get("/energy_price/v1/export/series/1-1-1", "series_values", {
    datasets: ["Germany"],
  });
  expect(answer).toEqual({
    status: 403,
    body: JSON.stringify({
      message:
        "Quota limit reached for dataset 'Germany': the service refused the gateway's Series Values call (HTTP 403).",
      dataset: "Germany",
    }),
    contentType: "application/json; charset=utf-8",
    retryAfter: null,
    refusal: { kind: "quota", dataset: "Germany" },
    serviceStatus: 403,
  });
});

test.each([
  ["the password", `bad password ${credentials.password}!`, "bad password [the gateway's account]!"],
  ["the username", `user ${credentials.username} locked`, "user [the gateway's account] locked"],
  ["neither", "maintenance until 10 pm", "maintenance until 10 pm"],
])("withoutCredentials takes out %s", (_case, text, expected) => {
  expect(withoutCredentials(text, credentials)).toBe(expected);
});

test("a call refused for the rate is sent again after the service's Retry-After, at most three times in all", async () => {
  const limited = () =>
    new Response('{"message":"Rate limit"}', { status: 429, headers: { "retry-after": "2" } });
  const script = scriptedFetch([json(200, { access_token: "t" }), limited, limited, limited]);
  const waits: number[] = [];
  const client = upstream(script.fetch, {
    sleep: async (ms) => void waits.push(ms),
  });
  const answer = await client.get("/energy_price/v1/export/series/1-1-1", "series_values");
  expect(answer.status).toBe(429);
  expect(waits).toEqual([2000, 2000]);
  expect(script.sent).toHaveLength(4);
});

test("turns: at most ten calls of one operation start in any 1.15 s, and other operations are not held", async () => {
  jest.useFakeTimers({ now: 0 });
  try {
    const client = upstream(scriptedFetch([]).fetch);
    const started: number[] = [];
    const turns = Array.from({ length: 12 }, () =>
      client.turn("series_values").then(() => started.push(Date.now())),
    );
    await jest.advanceTimersByTimeAsync(500);
    expect(started).toHaveLength(10);
    await client.turn("series_hist");
    await jest.advanceTimersByTimeAsync(1000);
    await Promise.all(turns);
    expect(started).toHaveLength(12);
    // The service's second and the gateway's margin for a call's way out (1.15 s).
    expect((started[10] ?? 0) - (started[0] ?? 0)).toBeGreaterThanOrEqual(1150);
  } finally {
    jest.useRealTimers();
  }
});

/** An Upstream on a clock the test moves, with a scripted fetch. */
function upstreamAt(script: ReturnType<typeof scriptedFetch>, clock: { now: number }) {
  return upstream(script.fetch, {
    now: () => clock.now,
  });
}

const downAnswer = (status: number, message: string, retryAfter?: string) => () =>
  new Response(JSON.stringify({ message }), {
    status,
    headers: { "content-type": "application/json", ...(retryAfter ? { "retry-after": retryAfter } : {}) },
  });

const VALUES = "/energy_price/v1/export/series/1-1-1";
const LIMITS = "/energy_price/v1/data_limits";
/** 25 Nov 2026, 09:00 US Central: a maintenance day. */
const IN_MAINTENANCE = Date.parse("2026-11-25T15:00:00Z");

test.each<[string, () => Response, string | null]>([
  [
    "maintenance (503)",
    downAnswer(503, "Service unavailable: scheduled maintenance", "3600"),
    "down for maintenance",
  ],
  ["release day (503)", downAnswer(503, "Closed for the monthly release"), "down for the monthly release"],
  ["maintenance told with a 500", downAnswer(500, "Downtime in progress"), "down for maintenance"],
  ["a 503 that names no downtime (nothing held)", downAnswer(503, "Upstream connect error"), null],
  ["a 502 that names no downtime (nothing held)", downAnswer(502, "Bad gateway"), null],
])(
  "the service answers %s: a downtime holds the gateway's calls unsent for a minute, then one is sent",
  async (_case, refusal, heldWords) => {
    const clock = { now: IN_MAINTENANCE };
    const script = scriptedFetch([
      json(200, { access_token: "t" }),
      refusal,
      refusal,
      json(200, []),
      json(200, {}),
    ]);
    const client = upstreamAt(script, clock);
    const first = await client.get(VALUES, "series_values");
    clock.now += 59_999;
    // Another operation: downtime is the whole service's.
    const second = await client.get(LIMITS, "data_limits");
    if (heldWords === null) {
      // A passing fault: each call is sent (members' own retries decide).
      expect(script.sent).toHaveLength(3);
      return;
    }
    expect(script.sent).toHaveLength(2);
    expect(second.status).toBe(first.status);
    // The service's delay counts down from when it was given.
    expect(second.retryAfter).toBe(first.retryAfter === null ? null : String(Number(first.retryAfter) - 59));
    const said = (JSON.parse(second.body) as { message: string }).message;
    expect(said).toContain(heldWords);
    expect(said).toContain(`HTTP ${first.status} at 2026-11-25 15:00 UTC`);
    expect(said).toContain("this Data Limits call was not sent");
    clock.now += 1;
    const third = await client.get(VALUES, "series_values");
    expect(script.sent).toHaveLength(3);
    expect(third.status).toBe(first.status);
    // Still down: held for another minute. Then the service answers, and calls go at once.
    clock.now += 60_000;
    expect((await client.get(VALUES, "series_values")).status).toBe(200);
    expect((await client.get(LIMITS, "data_limits")).status).toBe(200);
    expect(script.sent).toHaveLength(5);
  },
);

test("a sign-in refused for maintenance holds the calls back too; the held answer keeps no word of the service's", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = scriptedFetch([
    downAnswer(503, `maintenance ZEBRA-WINDOW for ${credentials.username}`),
    json(200, { access_token: "t" }),
    json(200, []),
  ]);
  const client = upstreamAt(script, clock);
  await expect(client.get(VALUES, "series_values")).rejects.toBeInstanceOf(UpstreamSignInError);
  clock.now += 30_000;
  const held = await client.get(VALUES, "series_values");
  expect(held.status).toBe(503);
  expect(held.body).not.toContain("ZEBRA");
  expect(held.body).not.toContain(credentials.username);
  expect(script.sent).toHaveLength(1);
  clock.now += 30_000;
  expect((await client.get(VALUES, "series_values")).status).toBe(200);
  expect(script.sent).toHaveLength(3);
});

/** A fetch whose answers the test gives, call by call, in the order the calls were sent. */
function heldFetch() {
  const sent: string[] = [];
  const waiting: Array<(response: Response) => void> = [];
  const fetchLike = (input: string | URL | Request) => {
    sent.push(String(input));
    return new Promise<Response>((resolve) => waiting.push(resolve));
  };
  return {
    sent,
    fetch: fetchLike as typeof fetch,
    /** Answers the oldest call not answered yet. */
    answer: (response: () => Response) => waiting.shift()?.(response()),
    /** Answers the newest call not answered yet. */
    answerNewest: (response: () => Response) => waiting.pop()?.(response()),
    waiting: () => waiting.length,
  };
}

const TOKEN = json(200, { access_token: "t" });
const MAINTENANCE_503 = downAnswer(503, "Service unavailable: scheduled maintenance");

/** Settles what is in flight (promises of answers already given). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("calls waiting for their turn when the refusal comes are held, not sent", async () => {
  jest.useFakeTimers({ now: IN_MAINTENANCE });
  try {
    const script = scriptedFetch([TOKEN, ...Array.from({ length: 12 }, () => MAINTENANCE_503)]);
    const client = upstream(script.fetch, {
      now: () => Date.now(),
    });
    const calls = Array.from({ length: 12 }, () => client.get(LIMITS, "data_limits"));
    await jest.advanceTimersByTimeAsync(100);
    // Ten start in the first second (the service's rate); the first refusal comes meanwhile.
    expect(script.sent).toHaveLength(11);
    await jest.advanceTimersByTimeAsync(1200);
    const answers = await Promise.all(calls);
    expect(script.sent).toHaveLength(11);
    const said = answers.slice(10).map((answer) => (JSON.parse(answer.body) as { message: string }).message);
    expect(said).toEqual([expect.stringContaining("was not sent"), expect.stringContaining("was not sent")]);
  } finally {
    jest.useRealTimers();
  }
});

test("after the minute one call goes to learn whether the service is back; the others wait for its answer, and a 200 ends the wait", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = heldFetch();
  const client = upstreamAt({ sent: [], fetch: script.fetch }, clock);
  const first = client.get(VALUES, "series_values");
  await settle();
  script.answer(TOKEN);
  await settle();
  script.answer(MAINTENANCE_503);
  expect((await first).status).toBe(503);
  clock.now += 60_000;
  const probe = client.get(VALUES, "series_values");
  await settle();
  const meanwhile = await client.get(LIMITS, "data_limits");
  expect(meanwhile.status).toBe(503);
  expect(script.sent).toHaveLength(3);
  script.answer(json(200, []));
  expect((await probe).status).toBe(200);
  // The service answered: calls go at once, together.
  const both = [client.get(VALUES, "series_values"), client.get(LIMITS, "data_limits")];
  await settle();
  expect(script.sent).toHaveLength(5);
  script.answer(json(200, []));
  script.answer(json(200, {}));
  expect((await Promise.all(both)).map((answer) => answer.status)).toEqual([200, 200]);
});

test("a late answer to a call sent before the refusal does not end the wait", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = heldFetch();
  const client = upstreamAt({ sent: [], fetch: script.fetch }, clock);
  const early = client.get(VALUES, "series_values");
  await settle();
  script.answer(TOKEN);
  await settle();
  clock.now += 1000;
  const later = client.get(LIMITS, "data_limits");
  await settle();
  expect(script.waiting()).toBe(2);
  // The later call's refusal comes first; the earlier call's 200 after it.
  script.answerNewest(MAINTENANCE_503);
  expect((await later).status).toBe(503);
  script.answer(json(200, []));
  expect((await early).status).toBe(200);
  expect((await client.get(VALUES, "series_values")).status).toBe(503);
  expect(script.sent).toHaveLength(3);
});

test("the sandbox keeps its own downtime: the live service's holds no sandbox call, and a sandbox answer ends no live wait", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = scriptedFetch([TOKEN, MAINTENANCE_503, json(200, []), json(200, [])]);
  const client = upstreamAt(script, clock);
  expect((await client.get(VALUES, "series_values")).status).toBe(503);
  const sandbox = "/energy_price/v1/sandbox/export/series/1-1-1";
  expect((await client.get(sandbox, "series_values")).status).toBe(200);
  expect((await client.get(sandbox, "series_values")).status).toBe(200);
  expect((await client.get(VALUES, "series_values")).status).toBe(503);
  expect(script.sent).toHaveLength(4);
});

test("only the probe's own answer lets another probe go: an earlier call's late failure or late refusal does not", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = heldFetch();
  const client = upstreamAt({ sent: [], fetch: script.fetch }, clock);
  // A call sent before the service said it is down, still on its way.
  const early = client.get(VALUES, "series_values").catch((error: unknown) => error);
  await settle();
  script.answer(TOKEN);
  await settle();
  clock.now += 1000;
  const refused = client.get(LIMITS, "data_limits");
  await settle();
  script.answerNewest(MAINTENANCE_503);
  expect((await refused).status).toBe(503);
  clock.now += 60_000;
  const probe = client.get(LIMITS, "data_limits");
  await settle();
  expect(script.sent).toHaveLength(4);
  // The early call fails late (a refusal naming the downtime): neither a second probe nor a new minute.
  clock.now += 1000;
  script.answer(MAINTENANCE_503);
  await early;
  expect((await client.get(VALUES, "series_values")).status).toBe(503);
  expect(script.sent).toHaveLength(4);
  script.answer(json(200, {}));
  expect((await probe).status).toBe(200);
  expect(
    (
      await Promise.all([
        client.get(VALUES, "series_values"),
        settle().then(() => script.answer(json(200, []))),
      ])
    )[0].status,
  ).toBe(200);
});

test("a probe that fails before it leaves lets the next call probe: nothing stays held for good", async () => {
  const clock = { now: IN_MAINTENANCE };
  const script = scriptedFetch([TOKEN, MAINTENANCE_503, json(200, [])]);
  let failSending = false;
  const client = upstream(script.fetch, {
    now: () => clock.now,
    sending: () => {
      if (failSending) throw new Error("counter broke");
    },
  });
  expect((await client.get(VALUES, "series_values")).status).toBe(503);
  clock.now += 60_000;
  failSending = true;
  await expect(client.get(VALUES, "series_values")).rejects.toThrow("counter broke");
  failSending = false;
  expect((await client.get(VALUES, "series_values")).status).toBe(200);
  expect(script.sent).toHaveLength(3);
});

test.each<[string, number | undefined, number[]]>([
  // what, the timeout set, what the sign-in, Series Values, History and Data Limits wait
  ["by default: 130 s, History 300 s", undefined, [130_000, 130_000, 300_000, 130_000]],
  ["with a shorter timeout set, History still waits 300 s", 60_000, [60_000, 60_000, 300_000, 60_000]],
  ["with a longer one, History waits as long", 400_000, [400_000, 400_000, 400_000, 400_000]],
])("how long a call waits for its answer, %s", async (_case, timeoutMs, waits) => {
  const script = scriptedFetch([
    json(200, { access_token: "t1" }),
    json(200, []),
    json(200, []),
    json(200, {}),
  ]);
  const asked: number[] = [];
  const client = upstream(script.fetch, {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    timeoutSignal: (ms) => {
      asked.push(ms);
      return new AbortController().signal;
    },
  });
  await client.get("/energy_price/v1/export/series/1-1-1", "series_values");
  await client.get("/energy_price/v1/export/series_hist/1-1-1", "series_hist");
  await client.get("/energy_price/v1/data_limits", "data_limits");
  expect(asked).toEqual(waits);
});

/** A service that grants `token` at every sign-in and answers every data call 200, counting sign-ins. */
function grantingService(token: () => string) {
  let signIns = 0;
  let calls = 0;
  const fetchLike = async (input: string | URL | Request) => {
    if (String(input).endsWith("/access_token/v1")) {
      signIns += 1;
      return json(200, { access_token: token() })();
    }
    calls += 1;
    return json(200, [])();
  };
  return { fetch: fetchLike as typeof fetch, signIns: () => signIns, calls: () => calls };
}

const HOUR_S = 3600;
/** The gateway's clock at the sign-in, in seconds (the claims below are the service's). */
const SIGNED_IN_S = IN_MAINTENANCE / 1000 - 30 * 24 * HOUR_S;

// How long the gateway uses its token, by the engine's rules (core/token-expiry.ts): the claim
// believed within 24 h; past on the gateway's clock, the token's own lifetime from the sign-in;
// renewed 5 minutes before it ends, or a quarter of a shorter life.
test.each<[string, string, number]>([
  [
    "a 2 h token on clocks that agree",
    makeJwt({ iat: SIGNED_IN_S, exp: SIGNED_IN_S + 2 * HOUR_S }),
    115 * 60,
  ],
  [
    "the gateway's clock 3 h ahead (exp already past): the token's 2 h from the sign-in",
    makeJwt({ iat: SIGNED_IN_S - 3 * HOUR_S, exp: SIGNED_IN_S - HOUR_S }),
    115 * 60,
  ],
  ["exp past and no iat: 2 h from the sign-in", makeJwt({ exp: SIGNED_IN_S - HOUR_S }), 115 * 60],
  [
    "the gateway's clock 1 h 58 min ahead (exp 2 min ahead): renewed at three quarters of those 2 min",
    makeJwt({ iat: SIGNED_IN_S - 118 * 60, exp: SIGNED_IN_S + 2 * 60 }),
    90,
  ],
  ["no exp: 2 h", makeJwt({ iat: SIGNED_IN_S }), 115 * 60],
  ["not a JWT: 2 h", "opaque-token", 115 * 60],
  [
    "exactly 24 h is believed",
    makeJwt({ iat: SIGNED_IN_S, exp: SIGNED_IN_S + 24 * HOUR_S }),
    24 * HOUR_S - 5 * 60,
  ],
  ["25 h is not believed: 2 h", makeJwt({ iat: SIGNED_IN_S, exp: SIGNED_IN_S + 25 * HOUR_S }), 115 * 60],
  ["exp 10^13 (past what a Date holds): 2 h", makeJwt({ exp: 1e13 }), 115 * 60],
])("the gateway's token expiry: %s", async (_case, token, renewedAfterS) => {
  const clock = { now: SIGNED_IN_S * 1000 };
  const service = grantingService(() => token);
  const client = upstream(service.fetch, {
    now: () => clock.now,
  });
  await client.get(LIMITS, "data_limits");
  clock.now = (SIGNED_IN_S + renewedAfterS) * 1000 - 1;
  await client.get(LIMITS, "data_limits");
  expect(service.signIns()).toBe(1);
  clock.now += 1;
  await client.get(LIMITS, "data_limits");
  expect(service.signIns()).toBe(2);
});

test("a gateway clock running hours ahead of the service's signs in once for many calls, not once per call", async () => {
  const clock = { now: SIGNED_IN_S * 1000 };
  // Each token the service grants is 2 h from the service's time, 3 h behind the gateway's.
  const service = grantingService(() => {
    const serviceNowS = Math.floor(clock.now / 1000) - 3 * HOUR_S;
    return makeJwt({ iat: serviceNowS, exp: serviceNowS + 2 * HOUR_S });
  });
  const client = upstream(service.fetch, {
    now: () => clock.now,
  });
  // Ten calls, ten minutes apart: within one second's turns of the operation, and one token's life.
  for (let call = 0; call < 10; call += 1) {
    await client.get(LIMITS, "data_limits");
    clock.now += 10 * 60_000;
  }
  expect(service.calls()).toBe(10);
  expect(service.signIns()).toBe(1);
});

/** The account's password is a year, as short numeric passwords are. */
const yearAccount = { username: "developer@company.example", password: "2024" };

// A 2xx answer is the service's data, kept and served to the whole team: a password that is
// also a date's year or a value is not replaced inside it.
test.each<[string, string, GatewayOperation, unknown]>([
  [
    "Series Values",
    "/energy_price/v1/export/series/1-1-1",
    "series_values",
    [
      {
        code: "1-1-1",
        updated_at: "2024-12-05",
        series_final_values: [{ date: "2024-01-01", value: 2024 }],
        series_forecast_values: [{ date: "2025-01-01", value: 2024.5 }],
      },
    ],
  ],
  [
    "Series Values History",
    "/energy_price/v1/export/series_hist/1-1-1",
    "series_hist",
    [
      {
        code: "1-1-1",
        series_final_values: [{ date: "2024-01-01", value: 12024 }],
        series_forecast_values: [],
      },
    ],
  ],
  [
    "Series Info",
    "/energy_price/v1/export/series",
    "series_info",
    [{ code: "1-1-1", coverage: "Germany", updated_at: "2024-01-01", last_available_final: "2024-11-01" }],
  ],
  ["Data Limits", LIMITS, "data_limits", { Germany: { remaining_requests: 2024, total_requests: 2024 } }],
])(
  "a 2xx %s answer reaches members as the service sent it, the password's digits included",
  async (_case, path, operation, data) => {
    const sentBody = JSON.stringify(data);
    const script = scriptedFetch([
      json(200, { access_token: "t" }),
      () => new Response(sentBody, { status: 200, headers: { "content-type": "application/json" } }),
    ]);
    const client = upstream(script.fetch, {
      credentials: yearAccount,
    });
    const answer = await client.get(path, operation);
    expect(answer).toEqual({
      status: 200,
      body: sentBody,
      contentType: "application/json",
      retryAfter: null,
      sentAt: 0,
    });
  },
);

test("the service's token is used as it came, even when it holds the password's digits", async () => {
  const token = "eyJhbGciOiJIUzI1NiJ9.e30.sig-2024-end";
  const script = scriptedFetch([json(200, { access_token: token }), json(200, [])]);
  const client = upstream(script.fetch, {
    credentials: yearAccount,
  });
  await client.get(LIMITS, "data_limits");
  expect((script.sent[1]?.init.headers as Record<string, string>).authorization).toBe(`Bearer ${token}`);
});

test.each<[string, () => Response]>([
  [
    "a refusal echoing the account in its text",
    () =>
      new Response(JSON.stringify({ message: `Quota limit reached for ${yearAccount.username} (2024)` }), {
        status: 403,
        headers: { "content-type": "application/json", "retry-after": "60" },
      }),
  ],
  [
    "a 2xx answer echoing the account in a header",
    () =>
      new Response("[]", {
        status: 200,
        headers: {
          "content-type": `application/json; account=${yearAccount.username}`,
          "retry-after": "2024",
        },
      }),
  ],
])("%s: what members get carries neither the name nor the password", async (_case, answer) => {
  const script = scriptedFetch([json(200, { access_token: "t" }), answer]);
  const client = upstream(script.fetch, {
    credentials: yearAccount,
  });
  const relayed = await client.get(VALUES, "series_values");
  for (const text of [relayed.body, relayed.contentType, relayed.retryAfter]) {
    expect(text ?? "").not.toContain(yearAccount.username);
    expect(text ?? "").not.toContain(yearAccount.password);
  }
});

test("calls sent together with a token the service then refuses share one renewal, and keep the token it brought", async () => {
  const signIns: string[] = [];
  /** The refusals of the calls that carried the first token, held until the test lets each go. */
  const refusals: Array<() => void> = [];
  const service = (async (input: string | URL | Request, init: RequestInit = {}) => {
    if (String(input).endsWith("/access_token/v1")) {
      signIns.push(`t${signIns.length + 1}`);
      return json(200, { access_token: signIns.at(-1) })();
    }
    if ((init.headers as Record<string, string>).authorization === "Bearer t1") {
      await new Promise<void>((resolve) => refusals.push(resolve));
      return json(401, { message: "Access token expired" })();
    }
    return json(200, [])();
  }) as typeof fetch;
  const client = upstream(service);
  const calls = [1, 2, 3].map(() => client.get("/energy_price/v1/data_limits", "data_limits"));
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  while (refusals.length < 3) await nextTurn();
  // Each refusal comes once the renewal that the one before it started has ended.
  for (const refuse of refusals) {
    refuse();
    for (let turn = 0; turn < 20; turn += 1) await nextTurn();
  }
  expect((await Promise.all(calls)).map((answer) => answer.status)).toEqual([200, 200, 200]);
  expect(signIns).toEqual(["t1", "t2"]);
});

test.each<[string, () => Response, number, string | null, string | null]>([
  // case, the token service's refusal, what members get (status, Retry-After at once, 20 s later)
  ["the account refused", json(401, { message: "Invalid credentials" }), 502, null, null],
  [
    "the token service's rate",
    () => new Response("{}", { status: 429, headers: { "retry-after": "60" } }),
    429,
    "60",
    "40",
  ],
])(
  "a sign-in refused (%s) is not asked again for a minute: members' requests meanwhile get the refusal",
  async (_case, refusal, status, retryAfterAtOnce, retryAfterLater) => {
    const clock = { now: 0 };
    const script = scriptedFetch([refusal, json(200, { access_token: "t1" }), json(200, [])]);
    const client = upstream(script.fetch, { now: () => clock.now });
    const refused = async () => {
      const failure = await client
        .get("/energy_price/v1/data_limits", "data_limits")
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(UpstreamSignInError);
      return (failure as UpstreamSignInError).answer;
    };
    expect(await refused()).toMatchObject({ status, retryAfter: retryAfterAtOnce });
    clock.now = 20_000;
    expect(await refused()).toMatchObject({ status, retryAfter: retryAfterLater });
    expect(script.sent).toHaveLength(1);
    clock.now = 60_000;
    expect((await client.get("/energy_price/v1/data_limits", "data_limits")).status).toBe(200);
    expect(script.sent.map((call) => call.url.split("/").pop())).toEqual(["v1", "v1", "data_limits"]);
  },
);

// A call whose connection broke once it was sent, or whose answer broke off while it was read,
// may have been charged: told as a timeout is, so its codes are not bought again at once. One
// that never reached the service is not.
const failedWith = (code?: string): unknown =>
  Object.assign(new TypeError("fetch failed"), code === undefined ? {} : { cause: { code } });
const brokenBody = (): Response =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.error(failedWith("UND_ERR_SOCKET"));
      },
    }),
    { status: 200, headers: { "content-type": "application/json" } },
  );
test.each<[string, () => Response | never, "cut off" | "not sent"]>([
  [
    "a connection reset",
    () => {
      throw failedWith("ECONNRESET");
    },
    "cut off",
  ],
  [
    "a socket the service closed",
    () => {
      throw failedWith("UND_ERR_SOCKET");
    },
    "cut off",
  ],
  ["an answer that broke off while read", brokenBody, "cut off"],
  [
    "a failure that says no cause (a redirect refused, say)",
    () => {
      throw failedWith();
    },
    "not sent",
  ],
  [
    "a connection refused",
    () => {
      throw failedWith("ECONNREFUSED");
    },
    "not sent",
  ],
  [
    "no such host",
    () => {
      throw failedWith("ENOTFOUND");
    },
    "not sent",
  ],
  [
    "a certificate refused",
    () => {
      throw failedWith("UNABLE_TO_GET_ISSUER_CERT_LOCALLY");
    },
    "not sent",
  ],
  [
    "TLS spoken to a plain port",
    () => {
      throw failedWith("ERR_SSL_WRONG_VERSION_NUMBER");
    },
    "not sent",
  ],
])("a data call that fails with %s", async (_case, failure, outcome) => {
  const script = scriptedFetch([json(200, { access_token: "t1" }), failure]);
  const error = await upstream(script.fetch)
    .get("/energy_price/v1/export/series/1-1-1", "series_values")
    .catch((caught: unknown) => caught);
  if (outcome === "cut off") {
    expect(error).toBeInstanceOf(UpstreamCutOff);
    expect(error).toBeInstanceOf(UpstreamTimeout);
    expect((error as Error).message).toMatch(
      /^The connection to the service broke before the gateway had the whole answer to its Series Values call/,
    );
    expect((error as Error).message).not.toContain(credentials.password);
  } else {
    expect(error).not.toBeInstanceOf(UpstreamTimeout);
  }
});

// The token service's 429 asking for longer than the minute is waited out in full: asked again
// sooner, it would be refused again (and members are told the longer wait meanwhile).
test("a sign-in refused for the rate with a Retry-After of 5 minutes is not asked again before them", async () => {
  const clock = { now: 0 };
  const script = scriptedFetch([
    () => new Response("{}", { status: 429, headers: { "retry-after": "300" } }),
    json(200, { access_token: "t1" }),
    json(200, []),
  ]);
  const client = upstream(script.fetch, { now: () => clock.now });
  const ask = () =>
    client.get("/energy_price/v1/data_limits", "data_limits").catch((error: unknown) => error);
  expect(await ask()).toBeInstanceOf(UpstreamSignInError);
  clock.now = 240_000;
  const meanwhile = await ask();
  expect(meanwhile).toBeInstanceOf(UpstreamSignInError);
  expect((meanwhile as UpstreamSignInError).answer.retryAfter).toBe("60");
  expect(script.sent).toHaveLength(1);
  clock.now = 300_000;
  expect(((await ask()) as { status: number }).status).toBe(200);
  expect(script.sent).toHaveLength(3);
});
