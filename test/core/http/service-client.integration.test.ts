// The transport half against the emulator over real HTTP on an ephemeral port.
import { Auth } from "../../../src/core/auth";
import type { EngineSettings } from "../../../src/core/engine-api";
import { PcdError } from "../../../src/core/errors";
import { createServiceClient, type TransportClient } from "../../../src/core/http";
import type { CodeRequest, ProductId, SeriesInfo } from "../../../src/core/model";
import { PRODUCTS } from "../../../src/core/model";
import { DEFAULT_SETTINGS } from "../../../src/core/settings";
import type { FetchLike } from "../../../src/core/environment";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator";
import { SlidingWindowLimiter } from "../../../src/emulator/rate-limit";
import { FakeClock } from "./fake-fetch";
import { seriesIn, seriesOf } from "../support/series-answer";

const QUIET = "2026-11-18T15:00:00Z";

interface Harness {
  emulator: RunningEmulator;
  clock: FakeClock;
  settings: EngineSettings;
  auth: Auth;
  client: TransportClient;
  admin(path: string, body?: unknown): Promise<unknown>;
}

async function startHarness(
  options: Partial<EmulatorOptions> = {},
  {
    fetch: clientFetch = fetch,
    ...client
  }: { requestsPerSecond?: number; maxInFlight?: number; fetch?: FetchLike } = {},
): Promise<Harness> {
  const emulator = await startEmulator({ now: QUIET, quiet: true, ...options });
  // Our clock stands still at the emulator's start: the engine's view of time is ours to set.
  const clock = new FakeClock(
    Date.parse(options.now instanceof Date ? options.now.toISOString() : (options.now ?? QUIET)),
  );
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, baseUrl: emulator.url, authUrl: emulator.url };
  const getSettings = (): EngineSettings => settings;
  const auth = new Auth({ fetch, clock, settings: getSettings });
  const transport = createServiceClient({
    fetch: clientFetch,
    clock,
    auth,
    settings: getSettings,
    ...client,
  });
  const admin = async (path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${emulator.url}/__admin/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`admin ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  return { emulator, clock, settings, auth, client: transport, admin };
}

interface AdminStats {
  calls: Record<string, number>;
  dataRequests: Record<string, number>;
}

const asRequests = (infos: readonly SeriesInfo[]): CodeRequest[] =>
  infos.map((info) => ({ code: info.code, currencyId: null, unitId: null }));

describe("transport against the emulator", () => {
  let h: Harness;
  const catalogs = new Map<ProductId, SeriesInfo[]>();

  beforeAll(async () => {
    h = await startHarness();
    await h.auth.signIn(h.emulator.username, h.emulator.password);
    for (const product of PRODUCTS) catalogs.set(product, await h.client.seriesInfo("live", product));
  });
  afterAll(async () => {
    await h?.emulator.close();
  });

  test("sign-in gives a token that lives 2 hours by its exp", () => {
    const status = h.auth.status();
    expect(status).toMatchObject({ signedIn: true, username: h.emulator.username, environment: "live" });
    // exp is on the emulator's clock, which starts at QUIET and runs on with real time.
    const lifetime = (status.tokenExpiresAt ?? 0) - Date.parse(QUIET);
    expect(lifetime).toBeGreaterThanOrEqual(7_200_000);
    expect(lifetime).toBeLessThan(7_200_000 + 60_000);
  });

  test("a wrong password is an auth error in PCD's words, without the password", async () => {
    const other = new Auth({ fetch, clock: h.clock, settings: () => h.settings });
    const error = await other.signIn(h.emulator.username, "wrong-password-123").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PcdError);
    expect((error as PcdError).kind).toBe("auth");
    expect((error as PcdError).message).toMatch(
      /^Sign-in failed: the service rejected the username or password \(HTTP 401\)\. Check both/,
    );
    expect((error as PcdError).message).not.toContain("wrong-password-123");
  });

  test.each(PRODUCTS)("Series Info of %s parses every record", (product) => {
    const infos = catalogs.get(product) ?? [];
    expect(infos.length).toBeGreaterThan(500);
    for (const info of infos) {
      expect(info.code).toMatch(/^\d+-\d+-\d+$/);
      expect(info.product).toBe(product);
      expect(info.coverage).not.toBe("");
    }
  });

  test("industry economics records get all three data types from their wording", () => {
    const infos = catalogs.get("industry_economics") ?? [];
    const byType = new Map<string, SeriesInfo[]>();
    for (const info of infos) byType.set(info.dataType, [...(byType.get(info.dataType) ?? []), info]);
    expect([...byType.keys()].sort()).toEqual(["cost_index", "location_factor", "utilities"]);
    expect(byType.get("location_factor")?.every((info) => /location factor/i.test(info.assessment))).toBe(
      true,
    );
    expect(byType.get("cost_index")?.every((info) => /cost index/i.test(info.assessment))).toBe(true);
  });

  test("Series Values: 13 finals per code, oldest first, matched by code, charged per code", async () => {
    const infos = (catalogs.get("energy_price") ?? [])
      .filter((info) => info.coverage === "Germany")
      .slice(0, 3);
    expect(infos).toHaveLength(3);
    h.client.resetStats();
    const before = (await h.admin("stats")) as AdminStats;
    // Reverse order: the answer must be matched by code, not by position.
    const result = await h.client.seriesValues("live", "energy_price", asRequests(infos).reverse());
    expect([...result.keys()].sort()).toEqual(infos.map((info) => info.code).sort());
    for (const values of seriesOf(result)) {
      expect(values.finals).toHaveLength(13);
      const months = values.finals.toPoints().map((point) => point.month);
      expect(months).toEqual([...months].sort());
    }
    const after = (await h.admin("stats")) as AdminStats;
    expect(after.calls.series_values).toBe((before.calls.series_values ?? 0) + 1);
    expect(h.client.stats()).toMatchObject({ http: { series_values: 1 }, dataRequests: 3 });
  });

  test("currency and unit options are applied", async () => {
    const info = (catalogs.get("energy_price") ?? []).find(
      (candidate) => candidate.availableCurrencies.includes("USD") && candidate.defaultCurrency !== "USD",
    );
    expect(info).toBeDefined();
    const code = info?.code ?? "";
    const result = await h.client.seriesValues("live", "energy_price", [
      { code, currencyId: 1, unitId: null },
    ]);
    expect(seriesIn(result, code)?.currency).toBe("USD");
  });

  test("Series Values History reaches back years; Data Limits reflect the charges", async () => {
    const info = (catalogs.get("commodity_price") ?? [])[0];
    expect(info).toBeDefined();
    const dataset = info?.coverage ?? "";
    const limitsBefore = await h.client.dataLimits("commodity_price");
    const history = await h.client.seriesHistory("live", "commodity_price", asRequests(info ? [info] : []));
    const finals = seriesIn(history, info?.code ?? "")?.finals ?? [];
    expect(finals.length).toBeGreaterThan(24);
    const limitsAfter = await h.client.dataLimits("commodity_price");
    expect(limitsAfter[dataset]?.remaining).toBe((limitsBefore[dataset]?.remaining ?? 0) - 1);
    expect(limitsAfter[dataset]?.total).toBe(500);
  });

  test("the sandbox serves dummy negative values", async () => {
    const infos = (catalogs.get("energy_price") ?? []).slice(0, 2);
    const result = await h.client.seriesValues("sandbox", "energy_price", asRequests(infos));
    expect(result.size).toBe(2);
    for (const values of seriesOf(result)) {
      expect(values.finals.toPoints().every((point) => point.value < 0)).toBe(true);
    }
  });

  test("an expired token is renewed once and the call retried once", async () => {
    const short = await startHarness({ tokenTtlSeconds: 60 });
    try {
      await short.auth.signIn(short.emulator.username, short.emulator.password);
      // The service's clock moves past exp while ours does not: only a 401 can tell.
      await short.admin("clock", { now: "2026-11-18T15:05:00Z" });
      const infos = await short.client.seriesInfo("live", "energy_price");
      expect(infos.length).toBeGreaterThan(0);
      const stats = (await short.admin("stats")) as AdminStats;
      expect(stats.calls.access_token).toBe(2);
      expect(stats.calls.series_info).toBe(2);
      expect(short.client.stats().http).toMatchObject({ access_token: 2, series_info: 2 });
    } finally {
      await short.emulator.close();
    }
  });

  test("during maintenance a call fails fast with the Central deadline", async () => {
    // Signed in at 05:00 Central on the 25th, just before the maintenance window opens.
    const maintenance = await startHarness({ now: "2026-11-25T11:00:00Z" });
    try {
      await maintenance.auth.signIn(maintenance.emulator.username, maintenance.emulator.password);
      await maintenance.admin("clock", { now: "2026-11-25T12:30:00Z" });
      maintenance.clock.time = Date.parse("2026-11-25T12:30:00Z");
      const error = await maintenance.client.dataLimits("energy_price").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PcdError);
      expect((error as PcdError).kind).toBe("unavailable");
      expect((error as PcdError).message).toMatch(
        /^The service is down for maintenance until 22:00 US Central Time/,
      );
      expect((error as PcdError).details.until).toBe(Date.parse("2026-11-26T04:00:00Z"));
      // Failed fast: no retry was sent.
      expect(maintenance.client.stats().http.data_limits).toBe(1);

      // A renewal in the window fails the same way, and says it was a renewal.
      maintenance.clock.time = Date.parse("2026-11-25T14:00:00Z");
      const renewal = await maintenance.auth.token().catch((e: unknown) => e);
      expect((renewal as PcdError).kind).toBe("unavailable");
      expect((renewal as PcdError).message).toMatch(
        /^Renewing the access token failed: The service is down for maintenance/,
      );
      expect(maintenance.auth.status().signedIn).toBe(true);
    } finally {
      await maintenance.emulator.close();
    }
  });
});

describe("real-shape variants (docs/service.md §6)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      boolStrings: true,
      naMarker: "-",
      extraFields: true,
      order: "shuffled",
      duplicateDates: true,
      errorFormat: "text",
    });
    await h.auth.signIn(h.emulator.username, h.emulator.password);
  });
  afterAll(async () => {
    await h?.emulator.close();
  });

  test("string booleans, '-' markers, extra fields, shuffled and duplicate dates", async () => {
    const infos = await h.client.seriesInfo("live", "industry_economics");
    expect(infos.length).toBeGreaterThan(500);
    expect(infos.every((info) => typeof info.hasForecast === "boolean")).toBe(true);
    const factor = infos.find((info) => info.dataType === "location_factor");
    expect(factor?.defaultCurrency).toBeNull();
    expect(factor?.availableCurrencies).toEqual([]);
    expect(factor?.raw.default_currency).toBe("-");

    const utilities = infos.filter((info) => info.dataType === "utilities").slice(0, 10);
    const result = await h.client.seriesValues("live", "industry_economics", asRequests(utilities));
    expect(result.size).toBe(10);
    for (const values of seriesOf(result)) {
      const months = values.finals.toPoints().map((point) => point.month);
      expect(months).toEqual([...new Set(months)].sort());
    }
  });

  test("a mixed-type industry call is a bad_request with the service's text (plain-text errors)", async () => {
    const infos = await h.client.seriesInfo("live", "industry_economics");
    const utility = infos.find((info) => info.dataType === "utilities");
    const factor = infos.find((info) => info.dataType === "location_factor");
    const error = await h.client
      .seriesValues(
        "live",
        "industry_economics",
        asRequests([utility, factor].filter((x): x is SeriesInfo => !!x)),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PcdError);
    expect((error as PcdError).kind).toBe("bad_request");
    expect((error as PcdError).details.serverMessage).toBeTruthy();
  });
});

describe("rate limiting", () => {
  test("the client's own limiter sends 12 parallel calls as the service's 10/s admits them", async () => {
    // When each call left, on the clock the client's limiter paces by. Where the service
    // counts a call (when the emulator, in this process, gets to it) depends on how busy the
    // machine is, so the pacing is checked against the service's own rule on the send times.
    const sentAt: number[] = [];
    const recording: FetchLike = (input, init) => {
      if (String(input).endsWith("/data_limits")) sentAt.push(Date.now());
      return fetch(input, init);
    };
    const h = await startHarness({}, { fetch: recording });
    try {
      await h.auth.signIn(h.emulator.username, h.emulator.password);
      const results = await Promise.all(
        Array.from({ length: 12 }, () => h.client.dataLimits("energy_price")),
      );
      expect(results.every((limits) => Object.keys(limits).length > 0)).toBe(true);
      expect(sentAt).toHaveLength(h.client.stats().http.data_limits);
      let now = 0;
      const serviceRule = new SlidingWindowLimiter(10, 1000, () => now);
      const refused = sentAt.filter((time) => {
        now = time;
        return !serviceRule.tryAcquire("data_limits").allowed;
      });
      expect(refused).toEqual([]);
      expect(sentAt.length).toBeGreaterThanOrEqual(12);
      // The service saw every call the client sent.
      const stats = (await h.admin("stats")) as AdminStats;
      expect(stats.calls.data_limits).toBe(sentAt.length);
    } finally {
      await h.emulator.close();
    }
  });

  test("a 429 storm (15 parallel calls, no client-side limit) settles with retries", async () => {
    const h = await startHarness({}, { requestsPerSecond: 1000, maxInFlight: 20 });
    try {
      await h.auth.signIn(h.emulator.username, h.emulator.password);
      const results = await Promise.all(
        Array.from({ length: 15 }, () => h.client.dataLimits("energy_price")),
      );
      expect(results.every((limits) => Object.keys(limits).length > 0)).toBe(true);
      const sent = h.client.stats().http.data_limits;
      expect(sent).toBeGreaterThan(15);
      const stats = (await h.admin("stats")) as AdminStats;
      expect(stats.calls.data_limits).toBe(sent);
    } finally {
      await h.emulator.close();
    }
  });
});
