import type { EngineSettings, ServiceState } from "../../../src/core/engine-api";
import { serviceState } from "../../../src/core/schedule";
import { PcdError } from "../../../src/core/errors";
import {
  createServiceClient,
  loadAnswerReaders,
  MAX_ANSWER_BYTES,
  type AnswerReaders,
  type ServiceClientDeps,
  type TokenSource,
} from "../../../src/core/http/service-client-impl";
import type { CodeRequest } from "../../../src/core/model";
import { HeldTimers } from "../../support/held-timers";
import { until } from "../../support/until";
import {
  FakeClock,
  MAINTENANCE_TIME,
  QUIET_TIME,
  hang,
  json,
  recordingLog,
  reject,
  scriptedFetch,
  settingsWith,
  text,
  type Responder,
} from "./fake-fetch";
import { seriesIn } from "../support/series-answer";

const TOKEN = "header.payload-token-1.signature";
const RENEWED = "header.payload-token-2.signature";

function fakeAuth(): TokenSource & { token: jest.Mock; renew: jest.Mock } {
  let current = TOKEN;
  let count = 1;
  return {
    token: jest.fn(async () => current),
    renew: jest.fn(async () => {
      current = RENEWED;
      count++;
      return current;
    }),
    requestCount: () => count,
    secrets: () => [PASSWORD, current],
  };
}

/** The signed-in account's password, which the session keeps in memory to renew the token. */
const PASSWORD = "hunter2-Correct-Horse";

const valuesRecord = (code: string, value = 1) => ({
  code,
  currency: "EUR",
  unit: "MWh",
  updated_at: "2026-10-05",
  series_final_values: [{ date: "2026-09-01", value }],
  series_forecast_values: [],
});

const infoRecord = (code: string) => ({ code, coverage: "Germany", assessment: "Gas", product: "Energy" });

function setup(options: {
  responders: Responder[];
  settings?: Partial<EngineSettings>;
  now?: number;
  maxInFlight?: number;
  requestsPerSecond?: number;
  maxRetries?: number;
  serviceState?: () => ServiceState;
  loadReaders?: () => Promise<AnswerReaders>;
}) {
  const clock = new FakeClock(options.now ?? QUIET_TIME);
  const { fetch, requests } = scriptedFetch(...options.responders);
  const auth = fakeAuth();
  const delays: number[] = [];
  const { log, lines } = recordingLog();
  const settings = settingsWith(options.settings);
  const client = createServiceClient({
    fetch,
    clock,
    auth,
    settings: () => settings,
    log,
    retry: options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries },
    maxInFlight: options.maxInFlight,
    requestsPerSecond: options.requestsPerSecond ?? 1000,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...(options.serviceState ? { serviceState: options.serviceState } : {}),
    ...(options.loadReaders ? { loadReaders: options.loadReaders } : {}),
  });
  return { client, requests, auth, delays, lines, clock };
}

/** A client whose timers (each attempt's timeout, the waits between retries) the test fires. */
function onHeldTimers(responders: Responder[], deps: Partial<ServiceClientDeps> = {}) {
  const timers = new HeldTimers();
  const { fetch, requests } = scriptedFetch(...responders);
  const client = createServiceClient({
    fetch,
    clock: new FakeClock(QUIET_TIME),
    scheduler: timers,
    auth: fakeAuth(),
    settings: () => settingsWith({ callTimeoutMs: 5_000 }),
    requestsPerSecond: 1000,
    ...deps,
  });
  return { client, requests, timers };
}

const codes = (...values: string[]): CodeRequest[] =>
  values.map((code) => ({ code, currencyId: null, unitId: null }));

async function caught(promise: Promise<unknown>): Promise<PcdError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PcdError) return error;
    throw error;
  }
  throw new Error("expected a PcdError");
}

describe("the code that reads answers, loaded before the first call leaves", () => {
  type Operation = "seriesInfo" | "seriesValues" | "seriesHistory" | "dataLimits";
  const answers: Record<Operation, unknown> = {
    seriesInfo: [infoRecord("68520-8-1")],
    seriesValues: [valuesRecord("68520-8-1")],
    seriesHistory: [valuesRecord("68520-8-1")],
    dataLimits: { Germany: { remaining_requests: 480, total_requests: 500 } },
  };
  const callOf = (client: ReturnType<typeof setup>["client"], operation: Operation): Promise<unknown> =>
    operation === "seriesInfo"
      ? client.seriesInfo("live", "energy_price")
      : operation === "dataLimits"
        ? client.dataLimits("energy_price")
        : client[operation]("live", "energy_price", codes("68520-8-1"));

  /** Fails its first load (as a chunk the add-in's host did not serve), then loads the code. */
  function failingOnce(): { load: () => Promise<AnswerReaders>; loads: () => number } {
    let loads = 0;
    return {
      load: () => {
        loads += 1;
        return loads === 1 ? Promise.reject(new Error("Loading chunk 812 failed.")) : loadAnswerReaders();
      },
      loads: () => loads,
    };
  }

  test.each<[Operation]>([["seriesInfo"], ["seriesValues"], ["seriesHistory"], ["dataLimits"]])(
    "%s: a failed load sends nothing and names the cause; the next call loads the code and is sent",
    async (operation) => {
      const readers = failingOnce();
      const { client, requests } = setup({
        responders: [json(answers[operation])],
        maxRetries: 0,
        loadReaders: readers.load,
      });
      const error = await caught(callOf(client, operation));
      expect([error.kind, error.message]).toEqual([
        "network",
        "PCD could not load its code that reads the service's answers (Loading chunk 812 failed.), so it sent no call: check the connection; PCD tries again.",
      ]);
      expect(requests).toHaveLength(0);
      expect(client.stats().dataRequests).toBe(0);

      await expect(callOf(client, operation)).resolves.toBeDefined();
      expect([requests.length, readers.loads()]).toEqual([1, 2]);
    },
  );

  test("a load that does not end within the call's timeout sends nothing; the load goes on", async () => {
    let finishLoad!: (readers: AnswerReaders) => void;
    const { client, requests, timers } = onHeldTimers([json([infoRecord("68520-8-1")])], {
      loadReaders: () => new Promise<AnswerReaders>((resolve) => (finishLoad = resolve)),
    });
    const first = caught(client.seriesInfo("live", "energy_price"));
    await until(
      () => timers.pending.length,
      (count) => count === 1,
      "the load's timer is set",
    );
    timers.fire();
    const error = await first;
    expect([error.kind, error.details.notSent, error.message]).toEqual([
      "network",
      true,
      "PCD could not load its code that reads the service's answers (no answer within 5 s), so it sent no call: check the connection; PCD tries again.",
    ]);
    expect(requests).toHaveLength(0);

    finishLoad(await loadAnswerReaders());
    await expect(client.seriesInfo("live", "energy_price")).resolves.toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  test("a token that cannot be had for want of a network: the call never left", async () => {
    const auth = fakeAuth();
    auth.token.mockRejectedValueOnce(new PcdError("network", "The service at x could not be reached."));
    const { fetch, requests } = scriptedFetch(json([valuesRecord("68520-8-1")]));
    const client = createServiceClient({
      fetch,
      clock: new FakeClock(QUIET_TIME),
      auth,
      settings: () => settingsWith(),
      requestsPerSecond: 1000,
    });
    const error = await caught(client.seriesValues("live", "energy_price", codes("68520-8-1")));
    expect([error.kind, error.details.notSent, requests.length]).toEqual(["network", true, 0]);
  });

  test("the code loads once for every call of a client", async () => {
    let loads = 0;
    const { client, requests } = setup({
      responders: [
        json([infoRecord("68520-8-1")]),
        json([infoRecord("68520-8-1")]),
        json([infoRecord("68520-8-1")]),
      ],
      loadReaders: () => {
        loads += 1;
        return loadAnswerReaders();
      },
    });
    await Promise.all([client.seriesInfo("live", "energy_price"), client.seriesInfo("live", "energy_price")]);
    await client.seriesInfo("live", "energy_price");
    expect([requests.length, loads]).toEqual([3, 1]);
  });
});

describe("answers nested past what the service sends", () => {
  const deep = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  test.each<[string, "seriesInfo" | "seriesValues" | "dataLimits", string]>([
    ["Series Values", "seriesValues", "Series Values"],
    ["Series Info", "seriesInfo", "Series Info"],
    ["Data Limits", "dataLimits", "Data Limits"],
  ])("%s: a protocol error naming the operation, refused before parsing", async (_name, operation, label) => {
    const { client } = setup({ responders: [json(deep(500_000))], maxRetries: 0 });
    const parse = jest.spyOn(JSON, "parse");
    try {
      const call =
        operation === "seriesValues"
          ? client.seriesValues("live", "energy_price", codes("68520-8-1"))
          : operation === "seriesInfo"
            ? client.seriesInfo("live", "energy_price")
            : client.dataLimits("energy_price");
      const error = await caught(call);
      expect(error.kind).toBe("protocol");
      expect(error.message).toBe(
        `The ${label} answer nested deeper than any answer of the service (over 8 levels); PCD did not read it.`,
      );
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  test("a record nested as deep as the bound allows is still read", async () => {
    const record = { ...valuesRecord("68520-8-1"), extra: [[[[{ a: 1 }]]]] }; // 7 levels
    const { client } = setup({ responders: [json([record])] });
    const result = await client.seriesValues("live", "energy_price", codes("68520-8-1"));
    expect(seriesIn(result, "68520-8-1")?.finals.toPoints()).toEqual([{ month: "2026-09", value: 1 }]);
  });
});

test("Series Values: a final value for a month to come is refused for its code, by the client's clock", async () => {
  const future = { ...valuesRecord("68520-8-1"), series_final_values: [{ date: "9999-12-01", value: 7 }] };
  const { client } = setup({ responders: [json([future, valuesRecord("912-5-2", 2)])] });
  const result = await client.seriesValues("live", "energy_price", codes("68520-8-1", "912-5-2"));
  // QUIET_TIME is in November 2026, the current release month: the latest a final can be.
  expect(result.get("68520-8-1")).toMatchObject({
    kind: "protocol",
    message: expect.stringMatching(
      /^The service sent a final value for 9999-12 for 68520-8-1, a month in the future .*2026-11\)/,
    ),
  });
  expect(seriesIn(result, "912-5-2")?.finals.toPoints()).toEqual([{ month: "2026-09", value: 2 }]);
});

describe("operations", () => {
  test("seriesInfo: GET with the bearer token, validated records", async () => {
    const { client, requests } = setup({ responders: [json([infoRecord("68520-8-1"), { code: "bad" }])] });
    const infos = await client.seriesInfo("live", "energy_price");
    expect(infos.map((info) => info.code)).toEqual(["68520-8-1"]);
    expect(requests[0]).toMatchObject({
      method: "GET",
      url: "https://pcd.example.com/energy_price/v1/export/series",
      headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }),
    });
  });

  test("seriesValues: codes segment in the path, a Map by code, data requests counted", async () => {
    const { client, requests } = setup({
      responders: [json([valuesRecord("912-5-2", 2), valuesRecord("68520-8-1", 1)])],
    });
    const result = await client.seriesValues("live", "energy_price", [
      { code: "68520-8-1", currencyId: 3, unitId: 7 },
      { code: "912-5-2", currencyId: null, unitId: null },
    ]);
    expect(requests[0]?.url).toBe(
      "https://pcd.example.com/energy_price/v1/export/series/68520-8-1&c=3&u=7,912-5-2",
    );
    expect(seriesIn(result, "68520-8-1")?.finals.toPoints()).toEqual([{ month: "2026-09", value: 1 }]);
    expect(seriesIn(result, "912-5-2")?.finals.toPoints()).toEqual([{ month: "2026-09", value: 2 }]);
    expect(client.stats()).toEqual({
      http: { access_token: 0, series_info: 0, series_values: 1, series_hist: 0, data_limits: 0 },
      dataRequests: 2,
    });
  });

  test("seriesHistory and dataLimits in the sandbox (Data Limits stays live)", async () => {
    const { client, requests } = setup({
      responders: [
        json([valuesRecord("1-1-1", -5)]),
        json({ Polymers: { remaining_requests: 5, total_requests: 9 } }),
      ],
    });
    const history = await client.seriesHistory("sandbox", "commodity_price", codes("1-1-1"));
    const limits = await client.dataLimits("commodity_price");
    expect(requests.map((request) => request.url)).toEqual([
      "https://pcd.example.com/commodity_price/v1/sandbox/export/series_hist/1-1-1",
      "https://pcd.example.com/commodity_price/v1/data_limits",
    ]);
    expect(seriesIn(history, "1-1-1")?.finals.valueAt(0)).toBe(-5);
    expect(limits).toEqual({ Polymers: { remaining: 5, total: 9 } });
    expect(client.stats().http).toMatchObject({ series_hist: 1, data_limits: 1 });
    expect(client.stats().dataRequests).toBe(1);
  });

  test.each<[string, CodeRequest[]]>([
    ["no codes", []],
    [
      "41 codes",
      Array.from({ length: 41 }, (_, i) => ({ code: `${i}-1-1`, currencyId: null, unitId: null })),
    ],
    ["a duplicate", codes("1-1-1", "1-1-1")],
  ])("%s is rejected before any call", async (_name, list) => {
    const { client, requests, auth } = setup({ responders: [json([])] });
    await expect(client.seriesValues("live", "energy_price", list)).rejects.toMatchObject({
      kind: "bad_request",
    });
    expect(requests).toHaveLength(0);
    expect(auth.token).not.toHaveBeenCalled();
  });

  test.each<[string, Responder, RegExp]>([
    [
      "a non-JSON body",
      text("<html>oops</html>", 200),
      /^The Series Values answer was not valid JSON \(HTTP 200/,
    ],
    [
      "a non-array body",
      json({ data: [] }),
      /^The Series Values answer was not a list of records \(got an object\)/,
    ],
    [
      "a body declared larger than PCD reads",
      text("[]", 200, { "Content-Length": String(MAX_ANSWER_BYTES + 1) }),
      /^The Series Values answer was too large/,
    ],
  ])(
    "%s is a protocol error naming the operation, marked charged, not retried",
    async (_name, responder, message) => {
      const { client, requests } = setup({ responders: [responder] });
      const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
      expect(error.kind).toBe("protocol");
      expect(error.message).toMatch(message);
      expect(requests).toHaveLength(1);
      // The service answered 2xx, so it charged the code: the caller must not take it back.
      expect(error.details.charged).toBe(true);
      expect(client.stats().dataRequests).toBe(1);
    },
  );

  test("a success answer whose body breaks off is charged and not sent again", async () => {
    const brokenBody: Responder = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('[{"code": "1-1-1", "series_final_values": ['));
            controller.error(new TypeError("terminated"));
          },
        }),
        { status: 200, headers: { "Content-Type": "application/json" } },
      );
    const { client, requests } = setup({ responders: [brokenBody, json([valuesRecord("1-1-1")])] });
    const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
    expect(error.kind).toBe("protocol");
    expect(error.message).toBe(
      "The Series Values answer broke off while being read (the connection broke); PCD did not use it.",
    );
    expect(error.details.charged).toBe(true);
    expect(requests).toHaveLength(1);
    expect(client.stats().dataRequests).toBe(1);
  });

  test.each<[string, Responder, "seriesValues" | "seriesInfo", string]>([
    [
      "an unreadable error answer to a data call",
      text("<html>teapot</html>", 418),
      "seriesValues",
      "bad_request",
    ],
    ["an unreadable catalog answer", text("<html>oops</html>", 200), "seriesInfo", "protocol"],
  ])("%s is not marked charged", async (_name, responder, method, kind) => {
    const { client } = setup({ responders: [responder] });
    const error = await caught(
      method === "seriesValues"
        ? client.seriesValues("live", "energy_price", codes("1-1-1"))
        : client.seriesInfo("live", "energy_price"),
    );
    expect(error.kind).toBe(kind);
    expect(error.details.charged).toBeUndefined();
    expect(client.stats().dataRequests).toBe(0);
  });
});

describe("retries", () => {
  test("429 with Retry-After is honoured, then succeeds", async () => {
    const { client, requests, delays } = setup({
      responders: [text("Too many requests", 429, { "Retry-After": "2" }), json([valuesRecord("1-1-1")])],
    });
    const result = await client.seriesValues("live", "energy_price", codes("1-1-1"));
    expect(result.has("1-1-1")).toBe(true);
    expect(delays).toEqual([2_000]);
    expect(requests).toHaveLength(2);
    // Every attempt counts as an HTTP call; only the 2xx one as a data request.
    expect(client.stats()).toMatchObject({ http: { series_values: 2 }, dataRequests: 1 });
  });

  test("Retry-After as an HTTP date", async () => {
    const retryAt = new Date(QUIET_TIME + 5_000).toUTCString();
    const { client, delays } = setup({
      responders: [text("slow down", 429, { "Retry-After": retryAt }), json([])],
    });
    await client.seriesInfo("live", "energy_price");
    expect(delays).toEqual([5_000]);
  });

  test("5xx is retried with exponential backoff and jitter, then fails naming the cause", async () => {
    const { client, requests, delays } = setup({ responders: [text("Internal error", 500)] });
    const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
    expect(error.kind).toBe("server");
    expect(error.message).toBe(
      "The service is failing: it answered HTTP 500 to Series Values. The service said: Internal error",
    );
    // random() = 0.5 of min(20 s, 500 ms * 2^n)
    expect(delays).toEqual([250, 500, 1_000, 2_000]);
    expect(requests).toHaveLength(5);
    expect(client.stats().http.series_values).toBe(5);
    expect(client.stats().dataRequests).toBe(0);
  });

  test.each<[string, (client: ReturnType<typeof setup>["client"]) => Promise<unknown>, number]>([
    // what, the call, the attempts sent
    [
      "Series Values, a data call that may have been charged, is not sent again at once",
      (client) => client.seriesValues("live", "energy_price", codes("1-1-1")),
      1,
    ],
    ["History likewise", (client) => client.seriesHistory("live", "energy_price", codes("1-1-1")), 1],
    [
      "Series Info, which costs nothing, is retried",
      (client) => client.seriesInfo("live", "energy_price"),
      5,
    ],
  ])(
    "a 504 (a gateway or relay got no answer from the service) is a timeout: %s",
    async (_case, call, attempts) => {
      const { client, requests } = setup({
        responders: [json({ message: "The service did not answer the gateway's call within 300 s." }, 504)],
      });
      const error = await caught(call(client));
      expect(error.kind).toBe("timeout");
      expect(error.message).toContain("HTTP 504 (the service may have charged the call)");
      expect(requests).toHaveLength(attempts);
    },
  );

  test("the retry count follows the policy", async () => {
    const { client, requests } = setup({ responders: [text("Bad gateway", 502)], maxRetries: 1 });
    await expect(client.seriesInfo("live", "energy_price")).rejects.toMatchObject({ kind: "server" });
    expect(requests).toHaveLength(2);
  });

  test.each<[string, Responder, string]>([
    ["400", json({ message: "Invalid code" }, 400), "bad_request"],
    ["404", text("Not found", 404), "not_found"],
    ["403 quota", json({ message: "Quota limit reached for Germany" }, 403), "quota"],
    ["429 quota", json({ message: "Monthly quota exhausted for Spain" }, 429), "quota"],
    ["403 plan", json({ message: "History is not part of your plan" }, 403), "plan"],
    ["501", text("Not implemented", 501), "server"],
  ])("%s is not retried", async (_name, responder, kind) => {
    const { client, requests, delays } = setup({ responders: [responder] });
    const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
    expect(error.kind).toBe(kind);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  test("network errors are retried", async () => {
    const { client, requests } = setup({
      responders: [reject(new TypeError("fetch failed")), reject(new TypeError("fetch failed")), json([])],
    });
    await expect(client.seriesInfo("live", "energy_price")).resolves.toEqual([]);
    expect(requests).toHaveLength(3);
  });

  test("503 outside the schedule's windows is retried", async () => {
    const { client, requests } = setup({ responders: [text("Unavailable", 503), json([])] });
    await expect(client.seriesInfo("live", "energy_price")).resolves.toEqual([]);
    expect(requests).toHaveLength(2);
  });

  test("503 during maintenance fails fast with until and the Central deadline", async () => {
    const { client, requests } = setup({ now: MAINTENANCE_TIME, responders: [text("Maintenance", 503)] });
    const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
    expect(error.kind).toBe("unavailable");
    expect(error.message).toMatch(/^The service is down for maintenance until 22:00 US Central Time \(/);
    expect(error.details.until).toBe(Date.parse("2026-11-16T04:00:00Z"));
    expect(requests).toHaveLength(1);
  });

  // Release day, 12:00 US Central: the calendar says the service is down for the release.
  const RELEASE_DAY = Date.parse("2026-12-03T18:00:00Z");
  test.each<[string, (() => ServiceState) | undefined, string, number]>([
    ["the calendar alone: the release downtime, not retried", undefined, "unavailable", 1],
    [
      "the engine saw the release out: a passing failure, retried",
      () => ({ ...serviceState(RELEASE_DAY, 3), available: true, reason: null, until: null }),
      "answered",
      2,
    ],
  ])("a 503 on release day, %s", async (_name, state, outcome, calls) => {
    const { client, requests } = setup({
      now: RELEASE_DAY,
      responders: [text("Unavailable", 503), json([])],
      ...(state ? { serviceState: state } : {}),
    });
    const result = await client.seriesInfo("live", "energy_price").then(
      () => "answered",
      (error: PcdError) => error.kind,
    );
    expect(result).toBe(outcome);
    expect(requests).toHaveLength(calls);
  });

  test("503 with a Retry-After beyond 60 s fails fast", async () => {
    const { client, requests } = setup({ responders: [text("Back later", 503, { "Retry-After": "3600" })] });
    const error = await caught(client.seriesInfo("live", "energy_price"));
    // No word of a maintenance: a server fault of unknown cause, with the wait it asked for.
    expect(error.kind).toBe("server");
    expect(error.details.retryAfterMs).toBe(3_600_000);
    expect(requests).toHaveLength(1);
  });

  test("a 400 for mixed industry economics types keeps the server text for the split", async () => {
    const { client } = setup({
      responders: [json({ message: "A call may contain codes of one subscription data type only" }, 400)],
    });
    const error = await caught(client.seriesValues("live", "industry_economics", codes("1-1-1", "2-2-2")));
    expect(error.kind).toBe("bad_request");
    expect(error.details.serverMessage).toBe("A call may contain codes of one subscription data type only");
  });
});

describe("401 handling", () => {
  test("renews once and retries once with the new token", async () => {
    const { client, requests, auth } = setup({ responders: [text("Token expired", 401), json([])] });
    await expect(client.seriesInfo("live", "energy_price")).resolves.toEqual([]);
    expect(auth.renew).toHaveBeenCalledTimes(1);
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      `Bearer ${RENEWED}`,
    ]);
    expect(client.stats().http).toMatchObject({ series_info: 2, access_token: 1 });
  });

  test("a 401 for a token another call has already replaced retries without renewing again", async () => {
    let releaseInfo: (() => void) | undefined;
    const infoHeld = new Promise<void>((resolve) => {
      releaseInfo = resolve;
    });
    const byUrl: Responder = async (request, index, signal) => {
      const renewedToken = request.headers.authorization === `Bearer ${RENEWED}`;
      if (request.url.endsWith("/data_limits")) {
        return (renewedToken ? json({}) : text("Token expired", 401))(request, index, signal);
      }
      if (!renewedToken) await infoHeld; // Series Info's 401 arrives after the renewal
      return (renewedToken ? json([]) : text("Token expired", 401))(request, index, signal);
    };
    const { client, requests, auth } = setup({ responders: [byUrl] });
    const info = client.seriesInfo("live", "energy_price");
    await expect(client.dataLimits("energy_price")).resolves.toEqual({});
    expect(auth.renew).toHaveBeenCalledTimes(1);
    releaseInfo?.();
    await expect(info).resolves.toEqual([]);
    expect(auth.renew).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(4);
  });

  test("a second 401 is an auth error", async () => {
    const { client, requests, auth } = setup({ responders: [text("Token expired", 401)] });
    const error = await caught(client.seriesInfo("live", "energy_price"));
    expect(error.kind).toBe("auth");
    expect(auth.renew).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
  });

  test("a failed renewal is passed on as is", async () => {
    const { client, auth } = setup({ responders: [text("Token expired", 401)] });
    auth.renew.mockRejectedValueOnce(new PcdError("not_signed_in", "Not signed in"));
    await expect(client.seriesInfo("live", "energy_price")).rejects.toMatchObject({ kind: "not_signed_in" });
  });

  test("not signed in: no request at all", async () => {
    const { client, auth, requests } = setup({ responders: [json([])] });
    auth.token.mockRejectedValue(new PcdError("not_signed_in", "Not signed in"));
    await expect(client.dataLimits("energy_price")).rejects.toMatchObject({ kind: "not_signed_in" });
    expect(requests).toHaveLength(0);
  });

  test("the token never appears in an error message or a log line", async () => {
    const { client, lines } = setup({
      responders: [
        json({ message: `bad token ${TOKEN}` }, 401),
        json({ message: `still bad: Bearer ${RENEWED}` }, 400),
      ],
    });
    const error = await caught(client.seriesInfo("live", "energy_price"));
    const texts = [error.message, JSON.stringify(error.details), ...lines.map((line) => line.message)];
    for (const text of texts) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(RENEWED);
    }
  });
});

describe("timeouts and cancellation", () => {
  beforeEach(() => jest.useFakeTimers({ now: QUIET_TIME }));
  afterEach(() => jest.useRealTimers());

  /** A request that never gets an answer; remembers when it was sent (fake time). */
  function hangRecordingStart(): { responder: Responder; sentAt: () => number } {
    let sentAt = Number.NaN;
    const never = hang();
    return {
      responder: (request, index, signal) => {
        sentAt = Date.now();
        return never(request, index, signal);
      },
      sentAt: () => sentAt,
    };
  }

  async function advanceTo(time: number): Promise<void> {
    await jest.advanceTimersByTimeAsync(time - Date.now());
  }

  test.each<["seriesValues" | "seriesHistory", number]>([
    ["seriesValues", 5_000],
    ["seriesHistory", 20_000],
  ])("%s is aborted after its timeout (%i ms) and reported as a timeout", async (method, timeoutMs) => {
    const { responder, sentAt } = hangRecordingStart();
    const { client, requests } = setup({
      responders: [responder],
      settings: { callTimeoutMs: 5_000, historyTimeoutMs: 20_000 },
      maxRetries: 0,
    });
    let settled = false;
    const pending = caught(client[method]("live", "energy_price", codes("1-1-1"))).finally(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(50);
    expect(requests).toHaveLength(1);
    await advanceTo(sentAt() + timeoutMs - 1);
    expect(settled).toBe(false);
    // Bottleneck settles jobs on zero-delay timers: let them run.
    await jest.advanceTimersByTimeAsync(1);
    await jest.advanceTimersByTimeAsync(10);
    expect(settled).toBe(true);
    const error = await pending;
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain(`got no answer within ${timeoutMs / 1000} s`);
  });

  test("timeouts are retried", async () => {
    const { client, requests } = setup({
      responders: [hang(), json([])],
      settings: { callTimeoutMs: 5_000 },
    });
    const pending = client.seriesInfo("live", "energy_price");
    await jest.advanceTimersByTimeAsync(5_100);
    await expect(pending).resolves.toEqual([]);
    expect(requests).toHaveLength(2);
  });

  test("the caller's signal aborts the call with its reason and no retry", async () => {
    const { client, requests } = setup({ responders: [hang()] });
    const controller = new AbortController();
    const pending = client.seriesInfo("live", "energy_price", { signal: controller.signal });
    await jest.advanceTimersByTimeAsync(50);
    expect(requests).toHaveLength(1);
    const rejection = expect(pending).rejects.toThrow("recalculation cancelled");
    controller.abort(new Error("recalculation cancelled"));
    await jest.advanceTimersByTimeAsync(10);
    await rejection;
    expect(requests).toHaveLength(1);
  });

  test("an already aborted signal sends nothing", async () => {
    const { client, requests } = setup({ responders: [json([])] });
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await expect(client.seriesInfo("live", "energy_price", { signal: controller.signal })).rejects.toThrow(
      "gone",
    );
    expect(requests).toHaveLength(0);
  });
});

describe("stats", () => {
  test("resetStats starts counting afresh, including token requests", async () => {
    const { client, auth } = setup({ responders: [json([valuesRecord("1-1-1")])] });
    await client.seriesValues("live", "energy_price", codes("1-1-1"));
    await auth.renew();
    expect(client.stats().http.access_token).toBe(1);
    client.resetStats();
    expect(client.stats()).toEqual({
      http: { access_token: 0, series_info: 0, series_values: 0, series_hist: 0, data_limits: 0 },
      dataRequests: 0,
    });
  });
});

describe("send slots (the batcher binds codes when its slot is granted)", () => {
  test("a reserved slot carries the first attempt; the retry queues at the gate again", async () => {
    // One place in flight: a first attempt queued behind its own slot, or a retry reusing
    // the spent slot, would hang or throw.
    const { client, requests } = setup({
      maxInFlight: 1,
      responders: [
        text("Too many requests", 429, { "Retry-After": "1" }),
        json([valuesRecord("1-1-1")]),
        json([infoRecord("1-1-1")]),
      ],
    });
    const slot = await client.reserveSlot("series_values");
    const result = await client.seriesValues("live", "energy_price", codes("1-1-1"), { slot });
    expect(result.has("1-1-1")).toBe(true);
    expect(requests).toHaveLength(2);
    // Both places were given back: the next call leaves.
    await expect(client.seriesInfo("live", "energy_price")).resolves.toHaveLength(1);
  });

  test.each([
    [
      "no token",
      (auth: ReturnType<typeof fakeAuth>) =>
        auth.token.mockRejectedValueOnce(new PcdError("not_signed_in", "Not signed in")),
      codes("1-1-1"),
    ],
    ["codes the path cannot hold", () => undefined, codes("not a code")],
  ])(
    "a call that ends before its first attempt (%s) frees its slot",
    async (_case, arrange, requestCodes) => {
      const { client, auth, requests } = setup({ maxInFlight: 1, responders: [json([infoRecord("1-1-1")])] });
      arrange(auth);
      const slot = await client.reserveSlot("series_values");
      await expect(
        client.seriesValues("live", "energy_price", requestCodes, { slot }),
      ).rejects.toBeInstanceOf(PcdError);
      expect(requests).toHaveLength(0);
      // The only place in flight is free again: the next call leaves.
      await expect(client.seriesInfo("live", "energy_price")).resolves.toHaveLength(1);
    },
  );
});

describe("every failure's text is redacted of the password and the token", () => {
  test.each<[string, Responder]>([
    ["a Series Values 500 echoing the password", text(`internal error: password=${PASSWORD}`, 500)],
    ["a Series Values 400 echoing the token", text(`bad request with token ${TOKEN}`, 400)],
    [
      "a fetch rejection quoting the request's header",
      reject(
        new TypeError(`Headers.append: "Bearer ${TOKEN}\u0000" is an invalid header value; ${PASSWORD}`),
      ),
    ],
  ])("%s", async (_name, responder) => {
    const { client } = setup({ responders: [responder, responder, responder, responder], maxRetries: 0 });
    const error = await caught(client.seriesValues("live", "energy_price", codes("1-1-1")));
    const shown = `${error.message} ${JSON.stringify(error.details)}`;
    expect(shown).not.toContain("hunter2");
    expect(shown).not.toContain(TOKEN.split(".")[1] ?? TOKEN);
  });
});

describe("the attempt's timeout and the retry wait run on the injected scheduler", () => {
  const held = (responders: Responder[], maxRetries: number) =>
    onHeldTimers(responders, { retry: { maxRetries } });

  test("a call without an answer times out when its timer fires, not before", async () => {
    const { client, requests, timers } = held([hang()], 0);
    let settled = false;
    const pending = caught(client.seriesInfo("live", "energy_price")).finally(() => {
      settled = true;
    });
    await until(() => requests.length === 1, Boolean, "the call is sent");
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5_000]);
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    timers.fire();
    const error = await pending;
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("got no answer within 5 s");
  });

  test("the wait before a retry ends when its timer fires; an answered attempt leaves no timer", async () => {
    const { client, requests, timers } = held([text("busy", 500), json([])], 1);
    const pending = client.seriesInfo("live", "energy_price");
    await until(() => requests.length === 1 && timers.pending.length === 1, Boolean, "the retry waits");
    // The first attempt's timeout was cancelled with its answer: only the retry wait is left.
    expect(timers.pending[0]!.ms).toBeLessThan(5_000);
    timers.fire();
    await expect(pending).resolves.toEqual([]);
    expect(requests).toHaveLength(2);
    expect(timers.pending).toEqual([]);
  });
});

// Through a team gateway a data call names the live catalog this engine holds (the time the
// gateway said it read it), so an instance of the gateway holding an older copy reads the newer
// one before it judges what it keeps; the service itself never gets the header.
describe("a data call names the catalog it holds, through a team gateway only", () => {
  const READ_AT = "2026-11-20T11:55:00.000Z";
  test.each<[string, boolean, "live" | "sandbox", "energy_price" | "commodity_price", string | undefined]>([
    ["through a gateway, the product whose catalog it answered", true, "live", "energy_price", READ_AT],
    [
      "through a gateway, a product it has not answered a catalog of",
      true,
      "live",
      "commodity_price",
      undefined,
    ],
    ["through a gateway, sandbox data", true, "sandbox", "energy_price", undefined],
    ["the service itself", false, "live", "energy_price", undefined],
  ])("%s", async (_case, throughGateway, environment, product, header) => {
    const { fetch, requests } = scriptedFetch(
      json([infoRecord("68520-8-1")], 200, { "pcd-catalog-read-at": READ_AT }),
      json([valuesRecord("68520-8-1")]),
    );
    const client = createServiceClient({
      fetch,
      clock: new FakeClock(QUIET_TIME),
      auth: fakeAuth(),
      settings: () => settingsWith({}),
      requestsPerSecond: 1000,
      throughGateway: () => throughGateway,
    });
    await client.seriesInfo("live", "energy_price");
    await client.seriesValues(environment, product, codes("68520-8-1")).catch(() => undefined);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers["pcd-catalog-read-at"]).toBe(header);
    expect(requests[0]?.headers["pcd-catalog-read-at"]).toBeUndefined();
  });
});
