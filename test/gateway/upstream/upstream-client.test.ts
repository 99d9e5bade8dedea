// The gateway's connection to the service, against a scripted fetch: one token for everyone,
// renewed once after a 401, never sent across a redirect, and the account never in what it relays.
import { Upstream, UpstreamSignInError } from "../../../src/gateway/upstream/upstream-client";
import { withoutCredentials } from "../../../src/gateway/upstream/upstream-credentials";

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

function upstream(fetchLike: typeof fetch) {
  return new Upstream({
    base: "https://service.example/api",
    auth: "https://service.example/auth",
    credentials,
    fetch: fetchLike,
    now: () => 0,
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

test("a refused sign-in reaches members with the service's status, and its text without the account", async () => {
  const script = scriptedFetch([
    json(401, {
      message: `Invalid credentials for ${credentials.username} (password ${credentials.password})`,
    }),
  ]);
  const failure = await upstream(script.fetch)
    .get("/energy_price/v1/export/series", "series_info")
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(UpstreamSignInError);
  const { answer } = failure as UpstreamSignInError;
  expect(answer.status).toBe(401);
  expect(answer.body).not.toContain(credentials.username);
  expect(answer.body).not.toContain(credentials.password);
  expect((failure as Error).message).not.toContain(credentials.username);
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
  const client = new Upstream({
    base: "https://service.example/api",
    auth: "https://service.example/auth",
    credentials,
    fetch: script.fetch,
    now: () => 0,
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
