import { PcdError } from "../../src/core/errors";
import { PointColumns } from "../../src/core/point-columns";
import { formatLocalTime } from "../../src/core/http/classify";
import { classifyHttpFailure } from "../../src/core/http/http-failure";
import { serviceState } from "../../src/core/schedule";
import { requestKeyOf } from "../../src/core/request-key";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../../src/core/series-need";
import type { DatasetAllowance, ProductId } from "../../src/core/model";
import { MemoryStorage } from "../../src/core/storage";
import { CHARGED_FAILURE_MS, RECENT_FAILURE_MS } from "../../src/core/series-sync";
import { createHarness, NOW, RELEASE_START, rereadCatalog } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

/** December's release day start (06:00 US Central, 3 Dec 2026): it publishes November. */
const DECEMBER_RELEASE = Date.UTC(2026, 11, 3, 12);

/** The schedule has December's release day by the clock: closed from its start to 22:00 US Central. */
function onDecemberReleaseDay(h: ReturnType<typeof createHarness>): void {
  h.schedule.releaseStart = DECEMBER_RELEASE;
  h.schedule.previousReleaseStart = RELEASE_START;
  h.schedule.releaseWindow = { start: DECEMBER_RELEASE, until: Date.UTC(2026, 11, 4, 4) };
}

/** The data calls made, History before Series Values when they left together. */
function operations(service: FakeService): string[] {
  return service.dataCalls().map((call) => call.operation);
}

function serviceWith(...codes: string[]): FakeService {
  const service = new FakeService();
  service.addSeries(...codes.map((code) => seriesInfo({ code })));
  service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  return service;
}

describe("getSeries", () => {
  test("a whole-series cell buys History and Series Values once; the second ask is served from the cache", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    const data = await h.engine.getSeries(request);
    const months = data.finals.toPoints().map((point) => point.month);
    expect(months[0]).toBe("2007-01");
    expect(months.at(-1)).toBe("2026-10");
    // 2007-01..2026-10 without holes: History up to 2025-09, the window after it.
    expect(months).toHaveLength(238);
    expect(data.forecasts).toHaveLength(6);
    expect(data.staleBecause).toBeUndefined();
    expect(operations(h.service)).toEqual(["series_hist", "series_values"]);

    const again = await h.engine.getSeries(await h.engine.resolve("68520-8-1", "eur", "MWh"));
    expect(again.finals).toEqual(data.finals);
    expect(h.service.dataCalls()).toHaveLength(2);
    expect(h.engine.peek(request.key)?.lastFinal).toBe("2026-10");
  });

  // Cells of one key, and what they cost together: [needs in order, calls made].
  test.each<[string, SeriesNeed[], string[]]>([
    ["a latest value", [LATEST_ONLY], ["series_values"]],
    ["a recent table", [{ from: "2026-01", to: null }], ["series_values"]],
    ["a month inside the window", [{ from: "2025-11", to: "2025-11" }], ["series_values"]],
    ["old months only", [{ from: "2010-01", to: "2010-12" }], ["series_hist"]],
    ["forecasts and a latest value", [LATEST_ONLY, { from: "2026-11", to: "2027-02" }], ["series_values"]],
    [
      "a latest value, then a whole table: History only is added",
      [LATEST_ONLY, WHOLE_SERIES],
      ["series_values", "series_hist"],
    ],
    [
      "old months, then a latest value: Series Values only is added",
      [{ from: "2010-01", to: "2010-12" }, LATEST_ONLY],
      ["series_hist", "series_values"],
    ],
    [
      "a whole table, then a latest value: nothing more",
      [WHOLE_SERIES, LATEST_ONLY],
      ["series_hist", "series_values"],
    ],
  ])("by need: %s", async (_case, needs, expected) => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    for (const need of needs) {
      const data = await h.engine.getSeries(request, need);
      expect(data.staleBecause).toBeUndefined();
    }
    expect(operations(h.service)).toEqual(expected);
  });

  test("cells of one key with different needs, asked together, each buy a part once", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    const needs = [LATEST_ONLY, WHOLE_SERIES, { from: "2010-01", to: "2010-12" }, LATEST_ONLY, WHOLE_SERIES];
    const results = await Promise.all(needs.map((need) => h.engine.getSeries(request, need)));
    expect(results.every((data) => data.staleBecause === undefined)).toBe(true);
    expect(operations(h.service).sort()).toEqual(["series_hist", "series_values"]);
    expect(h.service.codesSent()).toBe(2);
  });

  test("a service whose History reaches the latest month (the description's letter) gets History alone", async () => {
    const service = serviceWith("68520-8-1", "68520-8-2").useSpecShape();
    const h = createHarness({ service });
    const data = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    expect(data.lastFinal).toBe("2026-10");
    expect(data.forecasts).toHaveLength(6);
    // Until a History answer shows otherwise, PCD assumes the real service's shape.
    expect(operations(h.service)).toEqual(["series_hist", "series_values"]);
    // Once it has, the next whole series is bought with History alone.
    await h.engine.getSeries(await h.engine.resolve("68520-8-2", null, null));
    expect(operations(h.service)).toEqual(["series_hist", "series_values", "series_hist"]);
  });

  test("concurrent cells coalesce into ceil(n/40) calls and one data request per key", async () => {
    const codes = Array.from({ length: 45 }, (_, i) => `${100 + i}-1-1`);
    const h = createHarness({ service: serviceWith(...codes) });
    const requests = await Promise.all(codes.map((code) => h.engine.resolve(code, null, null)));
    await Promise.all([...requests, ...requests].map((request) => h.engine.getSeries(request, LATEST_ONLY)));
    expect(h.service.dataCalls()).toHaveLength(2);
    expect(h.service.codesSent()).toBe(45);
    expect(h.engine.stats().dataRequests).toBe(45);
  });

  // Cells of a cold workbook all wait at once: they share one wait per key and planned parts
  // (SeriesSync.bring) instead of each holding a sync of its own.
  test("cells of one key that plan the same parts share one wait: one call per part, one answer for all", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    const whole = [1, 2, 3].map(() => h.engine.getSeries(request));
    const latest = [1, 2].map(() => h.engine.getSeries(request, LATEST_ONLY));
    const answers = await Promise.all([...whole, ...latest]);
    expect(new Set(answers).size).toBe(1);
    expect(operations(h.service)).toEqual(["series_hist", "series_values"]);
  });

  test("a failure reaches every cell sharing the wait, and a cell asking afterwards plans anew", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.service.failWith(() => new PcdError("server", "HTTP 500 from Series Values."));
    const cells = await Promise.allSettled([1, 2, 3].map(() => h.engine.getSeries(request, LATEST_ONLY)));
    expect(
      cells.map((cell) => (cell.status === "rejected" ? (cell.reason as PcdError).kind : "served")),
    ).toEqual(["server", "server", "server"]);
    expect(h.service.dataCalls()).toHaveLength(1);
    // The failure is remembered (RECENT_FAILURE_MS): asking again costs no call...
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "server" });
    expect(h.service.dataCalls()).toHaveLength(1);
    // ...and once it has passed, the next ask plans and calls again.
    h.service.failures = [];
    h.clock.now += RECENT_FAILURE_MS;
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
    expect(h.service.dataCalls()).toHaveLength(2);
  });

  test("a charged answer PCD could not use is not bought again for CHARGED_FAILURE_MS, nor by the cells' re-runs meanwhile", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.service.failWith(
      () =>
        new PcdError("protocol", "The Series Values answer was not valid JSON (HTTP 200, 9 characters).", {
          status: 200,
          charged: true,
        }),
    );
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "protocol" });
    // Cells re-running later get the same failure without a call: retrying would spend a
    // data request each time on an answer likely to come back broken.
    h.clock.now += CHARGED_FAILURE_MS - 1;
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "protocol" });
    expect(h.service.dataCalls()).toHaveLength(1);
    // Then one more try, and it is answered.
    h.clock.now += 1;
    h.service.failures = [];
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
    expect(h.service.dataCalls()).toHaveLength(2);
  });

  test("a charged answer PCD could not use is bought again at once by the user's refresh", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.service.failWith(
      () => new PcdError("protocol", "The Series Values answer was not valid JSON.", { charged: true }),
    );
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "protocol" });
    h.service.failures = [];
    expect((await h.engine.refreshAll()).requestsUsed).toBe(1);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
    expect(h.service.dataCalls()).toHaveLength(2);
  });

  test("a charged answer PCD could not use is bought again once the catalog shows the series changed", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    let failing = true;
    h.service.failWith(() =>
      failing
        ? new PcdError("not_found", "The service returned no data for 68520-8-1 (Series Values).", {
            charged: true,
          })
        : undefined,
    );
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "not_found" });
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "not_found" });
    expect(h.service.dataCalls()).toHaveLength(1);

    failing = false;
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-11");
    expect(h.service.dataCalls()).toHaveLength(2);
  });

  describe("a Series Values answer that ends before the catalog's last final month", () => {
    /** The service's Series Values answers leave out their last month while `short` says so. */
    function shortAnswers(h: ReturnType<typeof createHarness>): { short: boolean } {
      const state = { short: true };
      const values = h.service.seriesValues.bind(h.service);
      h.service.seriesValues = async (...args) => {
        const answer = await values(...args);
        if (!state.short) return answer;
        for (const [code, record] of answer) {
          if (record instanceof PcdError) continue;
          const points = record.finals.toPoints().slice(0, -1);
          answer.set(code, { ...record, finals: PointColumns.fromPoints(points) });
        }
        return answer;
      };
      return state;
    }

    test("a key bought for the first time: the cell names the gap, and re-asks cost nothing until the catalog changes", async () => {
      const h = createHarness({ service: serviceWith("68520-8-1") });
      const service = shortAnswers(h);
      const request = await h.engine.resolve("68520-8-1", null, null);
      const said =
        "The service sent 68520-8-1's months up to 2026-09 only, though its catalog lists 2026-10 " +
        "(PCD asks again later, or on Refresh all): the latest months of 68520-8-1 could not be fetched.";
      await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({
        kind: "protocol",
        message: said,
      });
      h.clock.now += 10 * RECENT_FAILURE_MS;
      await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ message: said });
      expect(h.service.dataCalls()).toHaveLength(1);

      service.short = false;
      h.service.updateSeries("68520-8-1", { updatedAt: "2026-11-06" });
      await rereadCatalog(h);
      expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
      expect(h.service.dataCalls()).toHaveLength(2);
    });

    test("a key cached from the last release: its cells keep that release, saying why", async () => {
      const h = createHarness({ service: serviceWith("68520-8-1") });
      const request = await h.engine.resolve("68520-8-1", null, null);
      expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
      shortAnswers(h);
      h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
      await rereadCatalog(h);
      const kept = await h.engine.getSeries(request, LATEST_ONLY);
      expect(kept.lastFinal).toBe("2026-10");
      expect(kept.staleBecause?.message).toMatch(
        /^The service sent 68520-8-1's months up to 2026-10 only, though its catalog lists 2026-11/,
      );
      expect(h.service.dataCalls()).toHaveLength(2);
    });
  });

  // What the answer says it applied to a cell asking USD and kWh: [case, currency, unit, shown or refused].
  test.each<[string, string | null, string | null, string | RegExp]>([
    ["what was asked", "USD", "kWh", "USD/kWh"],
    ["the same names in another spelling", "usd", "KWH", "usd/KWH"],
    ["names the tables do not know (not judged)", "US dollar", null, "US dollar/null"],
    [
      "another currency",
      "EUR",
      "kWh",
      /^The service's answer for 68520-8-1 is in EUR, not the USD asked for; PCD did not use it/,
    ],
    [
      "another currency and unit",
      "EUR",
      "MWh",
      /^The service's answer for 68520-8-1 is in EUR and MWh, not the USD and kWh asked for;/,
    ],
  ])("an answer that applied %s", async (_name, currency, unit, outcome) => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const values = h.service.seriesValues.bind(h.service);
    h.service.seriesValues = async (...args) => {
      const answer = await values(...args);
      for (const [code, record] of answer)
        if (!(record instanceof PcdError)) answer.set(code, { ...record, currency, unit });
      return answer;
    };
    const request = await h.engine.resolve("68520-8-1", "USD", "kWh");
    const shown = await h.engine.getSeries(request, LATEST_ONLY).then(
      (data) => `${data.currency}/${data.unit}`,
      (error: PcdError) => error.message,
    );
    expect(shown).toMatch(outcome);
    // Refused or not, the answer was charged: asking again costs nothing.
    await h.engine.getSeries(request, LATEST_ONLY).catch(() => undefined);
    expect(h.service.dataCalls()).toHaveLength(1);
  });

  // A shared wait is joined only while every part it waits for is in flight: once one part
  // has come or failed, a cell that asks plans that part anew, as it did with calls of its own.
  test("a cell asking after one part of a shared wait failed (a failure not remembered) calls that part again", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    let historyCalls = 0;
    h.service.failWith((call) =>
      call.operation === "series_hist" && ++historyCalls === 1
        ? new PcdError("auth", "Sign-in refused.")
        : undefined,
    );
    // Series Values is held until released, so it is still in flight when History has failed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const values = h.service.seriesValues.bind(h.service);
    h.service.seriesValues = async (...args) => {
      await held;
      return values(...args);
    };
    const first = h.engine.getSeries(request);
    const firstOutcome = first.then(
      () => "served",
      (error: PcdError) => error.kind,
    );
    while (historyCalls === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = h.engine.getSeries(request);
    release();
    expect((await second).lastFinal).toBe("2026-10");
    // The first cell's History failed, but the second cell's came before its Values did.
    expect(await firstOutcome).toBe("served");
    expect(operations(h.service)).toEqual(["series_hist", "series_values", "series_hist"]);
  });

  test("a failed fetch serves the cached entry unchanged, marked stale", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    const before = await h.engine.getSeries(request);
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    h.service.failWith(() => new PcdError("server", "HTTP 500 from Series Values (gave up after 3 retries)"));
    const after = await h.engine.getSeries(request);
    expect(after.staleBecause?.kind).toBe("server");
    expect(after.finals).toEqual(before.finals);
    expect(await h.storage.get(`pcd:data:${request.key}`)).toMatchObject({ lastFinal: "2026-10" });
  });

  test("a failed fetch without a cached entry throws the cause", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.service.failWith(() => new PcdError("network", "No network"));
    await expect(h.engine.getSeries(request)).rejects.toMatchObject({
      kind: "network",
      message: "No network",
    });
    expect(h.engine.peek(request.key)).toBeUndefined();
  });

  test("History failed, the window arrived: the whole table names the missing months, a latest value is served", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.service.failWith((call) =>
      call.operation === "series_hist" ? new PcdError("network", "No network.") : undefined,
    );
    await expect(h.engine.getSeries(request)).rejects.toMatchObject({
      kind: "network",
      message: "No network: the months before 2025-10 of 68520-8-1 could not be fetched.",
    });
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
  });

  test("during maintenance no call is made: cached data is served, else the window is named", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1", "68520-8-2") });
    const cachedRequest = await h.engine.resolve("68520-8-1", null, null);
    await h.engine.getSeries(cachedRequest);
    const newRequest = await h.engine.resolve("68520-8-2", null, null);
    h.service.updateSeries("68520-8-1", { updatedAt: "2026-11-21" });
    await rereadCatalog(h);
    const until = Date.UTC(2026, 10, 25, 4);
    h.schedule.down = { reason: "maintenance", until };
    const calls = h.service.dataCalls().length;

    const cached = await h.engine.getSeries(cachedRequest);
    expect(cached.staleBecause?.kind).toBe("unavailable");
    await expect(h.engine.getSeries(newRequest)).rejects.toThrow(
      `The service is down for maintenance until 22:00 US Central Time (${formatLocalTime(until)} your time); no cached data for 68520-8-2 yet.`,
    );
    await expect(h.engine.getSeries(newRequest)).rejects.toMatchObject({ details: { until } });
    expect(h.service.dataCalls()).toHaveLength(calls);
  });

  // Through a team gateway a known window stops no call: the gateway serves what it keeps and
  // answers the service's 503 for the rest. Directly, no call is made (the test above).
  test.each<[string, "maintenance" | "release", string]>([
    ["maintenance", "maintenance", "down for maintenance until 22:00 US Central Time"],
    ["release day", "release", "down for the monthly data release until 22:00 US Central Time at the latest"],
  ])(
    "through a team gateway during %s, calls go: what it keeps is served, and a key it lacks names the window and the gateway",
    async (_case, reason, window) => {
      const h = createHarness({ service: serviceWith("68520-8-1", "68520-8-2", "68520-8-3") });
      h.auth.gateway = { member: "ana@team.example" };
      const cachedRequest = await h.engine.resolve("68520-8-1", null, null);
      await h.engine.getSeries(cachedRequest);
      h.service.updateSeries("68520-8-1", { updatedAt: "2026-11-21" });
      const until = Date.UTC(2026, 10, 25, 4);
      h.schedule.down = { reason, until };
      // Release day: December's, whose month (November) the catalog does not show yet.
      if (reason === "release") h.schedule.releaseStart = DECEMBER_RELEASE;
      // The catalog is read through the gateway (its copy), and the changed series bought again.
      await rereadCatalog(h);
      const kept = await h.engine.getSeries(cachedRequest);
      expect(kept.staleBecause).toBeUndefined();
      expect(kept.updatedAt).toBe("2026-11-21");
      const newRequest = await h.engine.resolve("68520-8-2", null, null);
      expect((await h.engine.getSeries(newRequest)).finals.length).toBeGreaterThan(0);
      // The gateway keeps no copy of the third: its 503 is told with the window's end.
      h.service.failWith((call) =>
        call.codes.some((code) => code.code === "68520-8-3")
          ? new PcdError(
              "unavailable",
              "The service is down for maintenance: it answered the gateway HTTP 503.",
              {
                status: 503,
              },
            )
          : undefined,
      );
      const calls = h.service.dataCalls().length;
      await expect(h.engine.getSeries(await h.engine.resolve("68520-8-3", null, null))).rejects.toThrow(
        `The service is ${window} (${formatLocalTime(until)} your time); the team gateway keeps no copy of 68520-8-3 yet.`,
      );
      expect(h.service.dataCalls().length).toBeGreaterThan(calls);
      // The pane still tells the window: the service is down, whoever answers for it.
      expect(h.engine.serviceState()).toMatchObject({
        available: false,
        reason,
        until,
        throughGateway: true,
      });
    },
  );

  test("through a team gateway, sandbox data waits out a window like direct calls (the gateway keeps none)", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.updateSettings({ environment: "sandbox" });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.schedule.down = { reason: "maintenance", until: Date.UTC(2026, 10, 25, 4) };
    const calls = h.service.dataCalls().length;
    await expect(h.engine.getSeries(request)).rejects.toThrow(/no cached data for 68520-8-1 yet/);
    expect(h.service.dataCalls()).toHaveLength(calls);
    expect(h.engine.serviceState().throughGateway).toBeUndefined();
    // Its calls still go to the gateway: an outage names it.
    expect(h.engine.serviceState().callsToGateway).toBe(true);
  });

  test("through a team gateway, a series it keeps no copy of is not asked again before the window ends", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    const until = Date.UTC(2026, 10, 20, 20);
    h.schedule.down = { reason: "maintenance", until };
    h.service.failWith((call) =>
      call.operation === "series_values" || call.operation === "series_hist"
        ? new PcdError("unavailable", "The service is down for maintenance.", { status: 503, until })
        : undefined,
    );
    const request = await h.engine.resolve("68520-8-1", null, null);
    await expect(h.engine.getSeries(request)).rejects.toThrow(
      /the team gateway keeps no copy of 68520-8-1 yet/,
    );
    const calls = h.service.dataCalls().length;
    // Minutes later, a recalculation: the window still holds, no call.
    h.clock.now += 10 * 60 * 1000;
    await expect(h.engine.getSeries(request)).rejects.toThrow(/the team gateway keeps no copy/);
    expect(h.service.dataCalls()).toHaveLength(calls);
    // The window is over: the series is asked for again, and served.
    h.clock.now = until + 1;
    h.schedule.down = null;
    h.service.failures = [];
    expect((await h.engine.getSeries(request)).finals.length).toBeGreaterThan(0);
    expect(h.service.dataCalls().length).toBeGreaterThan(calls);
  });

  test("release day through a team gateway: new data in the catalog wakes the cells waiting for the service", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    h.schedule.down = { reason: "release", until: Date.UTC(2026, 11, 4, 4) };
    h.schedule.releaseStart = DECEMBER_RELEASE;
    let woken = 0;
    h.engine.onServiceBack(() => (woken += 1));
    await rereadCatalog(h);
    expect(woken).toBe(0);
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    expect(woken).toBe(1);
  });

  test("a catalog read through a team gateway in the release's downtime is read again once the release is out, also signed in directly", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    onDecemberReleaseDay(h);
    // 08:00 US Central on release day: the gateway's copy (October) is read.
    h.clock.now = Date.UTC(2026, 11, 3, 14);
    await h.engine.catalog("energy_price");
    expect(h.engine.serviceState()).toMatchObject({ available: false, reason: "release" });
    const catalogReads = () => h.service.calls.filter((call) => call.operation === "series_info").length;
    const read = catalogReads();
    // After the deadline, signed in directly: that copy says nothing of the release.
    h.auth.gateway = null;
    h.clock.now = Date.UTC(2026, 11, 4, 5);
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    const served = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    expect(catalogReads()).toBeGreaterThan(read);
    expect(served.lastFinal).toBe("2026-11");
  });

  test("through a team gateway, a catalog read the evening before release day is read again within minutes once the release is out: the cells get the new month and the downtime ends", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    const request = await h.engine.resolve("68520-8-1", null, null);
    await h.engine.getSeries(request, LATEST_ONLY);
    // 15:00 US Central the day before: the catalog is read (the engine stays open overnight).
    h.clock.now = Date.UTC(2026, 11, 2, 21);
    await h.engine.catalog("energy_price");
    onDecemberReleaseDay(h);
    // 08:00 US Central on release day: closed, the cached month is the latest out.
    h.clock.now = Date.UTC(2026, 11, 3, 14);
    expect(
      (await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null), LATEST_ONLY)).lastFinal,
    ).toBe("2026-10");
    // 13:00: the data came out at noon, and the gateway has read its catalog since.
    h.clock.now = Date.UTC(2026, 11, 3, 19);
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    h.service.catalogReadAt.set("energy_price", Date.UTC(2026, 11, 3, 18, 30));
    expect(h.engine.serveNow("68520-8-1", null, null, LATEST_ONLY)).toBeUndefined();
    const served = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null), LATEST_ONLY);
    expect(served.lastFinal).toBe("2026-11");
    expect(h.engine.serviceState()).toMatchObject({ available: true });
  });

  test("a catalog read through a team gateway while the release is awaited tells nothing of the service after a restart, signed in directly too", async () => {
    const storage = new MemoryStorage();
    const service = serviceWith("68520-8-1");
    const onReleaseDay = (h: ReturnType<typeof createHarness>, at: number) => {
      onDecemberReleaseDay(h);
      h.clock.now = at;
    };
    const before = createHarness({ service, storage });
    before.auth.gateway = { member: "ana@team.example" };
    onReleaseDay(before, Date.UTC(2026, 11, 3, 14));
    await before.engine.catalog("energy_price");
    expect(before.engine.serviceState()).toMatchObject({ available: false, reason: "release" });
    const after = createHarness({ service, storage });
    onReleaseDay(after, Date.UTC(2026, 11, 3, 15));
    await after.engine.ready();
    expect(after.engine.serviceState()).toMatchObject({ available: false, reason: "release" });
  });

  test("the refresh preview reads again a catalog read through a team gateway while the release was awaited", async () => {
    const service = serviceWith("68520-8-1");
    service.addSeries(seriesInfo({ code: "3-3-3", product: "commodity_price" }));
    const h = createHarness({ service });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    await h.engine.catalog("commodity_price");
    onDecemberReleaseDay(h);
    // 08:00 US Central: the gateway's copy of the energy catalog, last month's.
    h.clock.now = Date.UTC(2026, 11, 3, 14);
    await h.engine.catalog("energy_price");
    // 08:20: the commodity catalog (days old) is read and shows the new month; the release is out.
    h.clock.now = Date.UTC(2026, 11, 3, 14, 20);
    h.service.updateSeries("3-3-3", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await h.engine.catalog("commodity_price");
    expect(h.engine.serviceState().available).toBe(true);
    const catalogReads = () => h.service.calls.filter((call) => call.operation === "series_info").length;
    const read = catalogReads();
    // The workbook's energy catalog, read 30 minutes ago while the release was awaited, is read again.
    h.clock.now = Date.UTC(2026, 11, 3, 14, 30);
    await h.engine.planRefresh();
    expect(catalogReads()).toBeGreaterThan(read);
  });

  test("through a team gateway, a catalog it read from the service before the release is read again once the release is out, whenever it was served", async () => {
    const service = serviceWith("68520-8-1");
    service.addSeries(seriesInfo({ code: "3-3-3", product: "commodity_price" }));
    const h = createHarness({ service });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    onDecemberReleaseDay(h);
    // 13:00 US Central: the commodity catalog shows the new month, the release is out.
    h.clock.now = Date.UTC(2026, 11, 3, 19);
    h.service.updateSeries("3-3-3", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await h.engine.catalog("commodity_price");
    expect(h.engine.serviceState().available).toBe(true);
    // The gateway still answers energy with its copy read at 05:58, before the release.
    h.service.catalogReadAt.set("energy_price", Date.UTC(2026, 11, 3, 11, 58));
    await h.engine.catalog("energy_price");
    const catalogReads = () => h.service.calls.filter((call) => call.operation === "series_info").length;
    const read = catalogReads();
    // Minutes later the gateway has read it again: a cell's lookup reads it again and gets it.
    h.service.catalogReadAt.set("energy_price", Date.UTC(2026, 11, 3, 19, 5));
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    h.clock.now = Date.UTC(2026, 11, 3, 19, 10);
    const served = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    expect(catalogReads()).toBeGreaterThan(read);
    expect(served.lastFinal).toBe("2026-11");
  });

  test("through a team gateway, its catalog read after the release started shows the release out, its clock a little ahead or not", async () => {
    for (const ahead of [0, 90_000]) {
      const h = createHarness({ service: serviceWith("68520-8-1") });
      h.auth.gateway = { member: "ana@team.example" };
      h.schedule.releaseStart = DECEMBER_RELEASE;
      h.schedule.previousReleaseStart = RELEASE_START;
      h.schedule.releaseWindow = { start: DECEMBER_RELEASE, until: Date.UTC(2026, 11, 4, 4) };
      h.clock.now = Date.UTC(2026, 11, 3, 19);
      expect(h.engine.serviceState().available).toBe(false);
      h.service.catalogReadAt.set("energy_price", h.clock.now + ahead);
      await h.engine.resolve("68520-8-1", null, null);
      expect(h.engine.serviceState().available).toBe(true);
    }
  });

  test.each([
    // case, the gateway's read time after the release's start, whether that ends release day
    ["a copy stamped 2 minutes after the start (a gateway clock ahead): release day goes on", 2, false],
    ["a copy stamped within the clocks' difference: release day goes on", 4, false],
    ["a copy stamped past the clocks' difference: the release is out", 6, true],
  ])("through a team gateway, %s", async (_case, minutesAfterStart, ends) => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    onDecemberReleaseDay(h);
    // 06:10 US Central on release day.
    h.clock.now = DECEMBER_RELEASE + 10 * 60_000;
    h.service.catalogReadAt.set("energy_price", DECEMBER_RELEASE + minutesAfterStart * 60_000);
    await h.engine.catalog("energy_price");
    expect(h.engine.serviceState().available).toBe(ends);
    if (ends) return;
    // 15:00: the release came out at 14:00 and the gateway read it at 14:55: the cell gets it.
    h.clock.now = Date.UTC(2026, 11, 3, 21);
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    h.service.catalogReadAt.set("energy_price", Date.UTC(2026, 11, 3, 20, 55));
    const served = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    expect(served.lastFinal).toBe("2026-11");
    expect(h.engine.serviceState().available).toBe(true);
  });

  test("release day through a team gateway: its answers do not end the downtime, new data in the catalog does", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    h.auth.gateway = { member: "ana@team.example" };
    await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    const until = Date.UTC(2026, 10, 25, 4);
    h.schedule.down = { reason: "release", until };
    h.schedule.releaseStart = DECEMBER_RELEASE;
    // The gateway answers from the catalog it keeps (October's): the service may still be closed.
    await rereadCatalog(h);
    expect(h.engine.serviceState()).toMatchObject({ available: false, reason: "release" });
    // The catalog shows the new month: the release is out.
    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-11-24" });
    await rereadCatalog(h);
    expect(h.engine.serviceState()).toMatchObject({ available: true });
  });

  test("not signed in: cached data is served, otherwise the sign-in error", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1", "68520-8-2") });
    const cachedRequest = await h.engine.resolve("68520-8-1", null, null);
    await h.engine.getSeries(cachedRequest);
    const other = await h.engine.resolve("68520-8-2", null, null);
    h.auth.signedIn = false;
    h.service.updateSeries("68520-8-1", { updatedAt: "2026-11-21" });
    await rereadCatalog(h);
    expect((await h.engine.getSeries(cachedRequest)).staleBecause?.kind).toBe("not_signed_in");
    await expect(h.engine.getSeries(other)).rejects.toMatchObject({ kind: "not_signed_in" });
  });

  test("sandbox and live never share entries", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const live = await h.engine.resolve("68520-8-1", null, null);
    await h.engine.getSeries(live);
    await h.engine.updateSettings({ environment: "sandbox" });
    const sandbox = await h.engine.resolve("68520-8-1", null, null);
    expect(sandbox.key).toBe("sandbox|energy_price|68520-8-1|default|default");
    await h.engine.getSeries(sandbox);
    expect(h.service.dataCalls()).toHaveLength(4);
    // A live cell asked while in the sandbox keeps its live data and is told why it is not refreshed.
    h.service.updateSeries("68520-8-1", { updatedAt: "2026-11-21" });
    await rereadCatalog(h);
    expect((await h.engine.getSeries(live)).staleBecause?.message).toMatch(/set to sandbox/);
    expect(h.service.dataCalls()).toHaveLength(4);
  });

  test("a plan without History: said once, and months keep accumulating from Series Values", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1", "68520-8-2") });
    h.service.failWith((call) =>
      call.operation === "series_hist"
        ? new PcdError("plan", "Your plan does not include Series Values History")
        : undefined,
    );
    const first = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    await h.engine.getSeries(await h.engine.resolve("68520-8-2", null, null));
    expect(first.finals).toHaveLength(13);
    expect(operations(h.service)).toEqual(["series_hist", "series_values", "series_values"]);
    expect(h.logs.filter((line) => line.includes("no Series Values History"))).toHaveLength(1);
    expect(h.engine.historyUnavailable()).toEqual(["energy_price"]);

    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    const next = await h.engine.getSeries(await h.engine.resolve("68520-8-1", null, null));
    expect(next.finals).toHaveLength(14);
  });

  test("a catalog record without updated_at: bought once, then served from the cache until its months move on", async () => {
    const service = new FakeService();
    service.addSeries(seriesInfo({ code: "68520-8-1", updatedAt: null }));
    service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
    const h = createHarness({ service });
    const request = await h.engine.resolve("68520-8-1", null, null);
    const first = await h.engine.getSeries(request, LATEST_ONLY);
    expect(first.lastFinal).toBe("2026-10");
    expect((await h.engine.getSeries(request, LATEST_ONLY)).staleBecause).toBeUndefined();
    expect((await h.engine.refreshAll()).requestsUsed).toBe(0);
    expect(operations(h.service)).toEqual(["series_values"]);

    h.service.updateSeries("68520-8-1", { lastAvailableFinal: "2026-11" });
    await rereadCatalog(h);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-11");
    expect(operations(h.service)).toEqual(["series_values", "series_values"]);
  });
});

describe("allowances", () => {
  test("never sends beyond an allowance; one exhausted dataset does not stop the others", async () => {
    const service = new FakeService();
    service.addSeries(seriesInfo({ code: "1-1-1" }), seriesInfo({ code: "2-2-2" }));
    service.addSeries(seriesInfo({ code: "3-3-3", coverage: "France" }));
    service.limits.set("energy_price", {
      Germany: { remaining: 1, total: 500 },
      France: { remaining: 9, total: 500 },
    });
    const h = createHarness({ service });
    const requests = await Promise.all(
      ["1-1-1", "2-2-2", "3-3-3"].map((code) => h.engine.resolve(code, null, null)),
    );
    // A dashboard of latest values: one Series Values request per key.
    const results = await Promise.allSettled(
      requests.map((request) => h.engine.getSeries(request, LATEST_ONLY)),
    );
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const refused = results[1];
    expect(refused?.status === "rejected" && refused.reason).toMatchObject({
      kind: "quota",
      message:
        "Monthly allowance used up for dataset 'Germany' (0 of 500 left); it resets at the next monthly release, 2026-12-03.",
      details: { dataset: "Germany" },
    });
    expect(service.codesSent()).toBe(2);
    // Read once per product (a new workbook: alongside each catalog), never again per data call.
    expect(
      service.calls.filter((call) => call.operation === "data_limits").map((call) => call.product),
    ).toEqual(["energy_price", "commodity_price", "industry_economics"]);
    expect(await h.engine.limits()).toEqual([
      { product: "energy_price", dataset: "Germany", remaining: 0, total: 500 },
      { product: "energy_price", dataset: "France", remaining: 8, total: 500 },
    ]);
  });

  // A new workbook (no saved keys): which products' limits are read before any data call.
  test.each([
    ["signed in, live", ["energy_price", "commodity_price", "industry_economics"], true, "live"],
    ["signed out", [], false, "live"],
    ["sandbox (no monthly limits)", [], true, "sandbox"],
  ] as const)(
    "%s: a new workbook has the Data Limits read ahead, once: %j",
    async (_case, expected, signedIn, environment) => {
      const service = serviceWith("1-1-1");
      const h = createHarness({ service });
      h.auth.signedIn = signedIn;
      await h.engine.updateSettings({ environment });
      await h.engine.resolve("1-1-1", null, null).catch(() => undefined);
      await h.engine.resolve("1-1-1", null, null).catch(() => undefined);
      await h.engine.idle();
      const limitsCalls = service.calls.filter((call) => call.operation === "data_limits");
      expect(limitsCalls.map((call) => call.product)).toEqual(expected);
      expect(service.dataCalls()).toHaveLength(0);
    },
  );

  test("a catalog fetch reads the limits of a product the workbook's keys name, and of no other", async () => {
    const service = serviceWith("1-1-1");
    service.addSeries(seriesInfo({ code: "2-2-2", product: "commodity_price", coverage: "Metals" }));
    const h = createHarness({ service });
    h.engine.retainKey(
      requestKeyOf({
        environment: "live",
        product: "commodity_price",
        code: "2-2-2",
        currencyId: null,
        unitId: null,
      }).id,
    );
    await h.engine.catalog();
    const operations = service.calls.map((call) => `${call.operation}:${call.product}`);
    expect(operations.filter((call) => call.startsWith("data_limits"))).toEqual([
      "data_limits:commodity_price",
    ]);
    // Asked alongside the Series Info calls, not after the last of them.
    const lastInfo = Math.max(
      ...operations.map((call, index) => (call.startsWith("series_info") ? index : -1)),
    );
    expect(operations.indexOf("data_limits:commodity_price")).toBeLessThan(lastInfo);
    // A cell that starts using another product has that product's limits read when it resolves.
    await h.engine.resolve("1-1-1", null, null);
    await h.engine.resolve("1-1-1", null, null);
    expect(
      service.calls.filter((call) => call.operation === "data_limits").map((call) => call.product),
    ).toEqual(["commodity_price", "energy_price"]);
  });

  test("a quota error from the service blocks that dataset until the next release", async () => {
    const service = serviceWith("1-1-1", "2-2-2");
    const h = createHarness({ service });
    service.failWith((call) =>
      call.operation === "series_hist"
        ? new PcdError("quota", "Quota limit reached", {
            serverMessage: "Quota limit reached for dataset 'Germany'",
          })
        : undefined,
    );
    await expect(h.engine.getSeries(await h.engine.resolve("1-1-1", null, null))).rejects.toMatchObject({
      kind: "quota",
      details: { dataset: "Germany" },
    });
    service.failures = [];
    const calls = service.dataCalls().length;
    await expect(h.engine.getSeries(await h.engine.resolve("2-2-2", null, null))).rejects.toMatchObject({
      kind: "quota",
    });
    expect(service.dataCalls()).toHaveLength(calls);
    h.schedule.releaseStart = Date.UTC(2026, 11, 3, 12);
    h.clock.now = Date.UTC(2026, 11, 4);
    await expect(h.engine.getSeries(await h.engine.resolve("2-2-2", null, null))).resolves.toMatchObject({
      lastFinal: "2026-10",
    });
  });

  test("after the release, a used-up allowance read last month refuses nothing while Data Limits fails", async () => {
    const service = serviceWith("1-1-1");
    service.limits.set("energy_price", { Germany: { remaining: 0, total: 500 } });
    const h = createHarness({ service });
    const request = await h.engine.resolve("1-1-1", null, null);
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: "quota" });
    expect(service.dataCalls()).toHaveLength(0);

    // The release resets the allowances; Data Limits is failing for a while.
    service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
    service.failWith((call) =>
      call.operation === "data_limits" && call.product === "energy_price"
        ? new PcdError("server", "HTTP 502 from Data Limits.")
        : undefined,
    );
    h.schedule.releaseStart = Date.UTC(2026, 11, 3, 12);
    h.clock.now = Date.UTC(2026, 11, 4);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
    expect(service.dataCalls()).toHaveLength(1);
    // Last month's "0 left" is not shown as this month's: the report has only the cause.
    await expect(h.engine.limitsReport()).rejects.toMatchObject({ kind: "server" });
  });

  /**
   * A team gateway whose member (budget 10, 1 left in the reading, no reset named) is refused
   * every data call for the budget, in the gateway's words (`said`, ending its reset on `until`).
   */
  function refusedByMemberBudget(until: string) {
    const service = serviceWith("1-1-1", "2-2-2");
    service.limits.set("energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
    });
    const said =
      `Quota limit reached for member ana@team.example: until ${until} the gateway's budget of 10 data requests ` +
      "for dataset 'Germany' has 1 left; this request needs 2. Ask the gateway's administrator to raise the budget.";
    const refusal = classifyHttpFailure(
      { status: 403, bodyText: JSON.stringify({ message: said }), retryAfterMs: null },
      { operation: "series_hist", now: NOW, serviceState: serviceState(NOW, 3) },
    );
    const h = createHarness({ service });
    service.failWith((call) =>
      call.operation === "series_hist" || call.operation === "series_values" ? refusal : undefined,
    );
    return { service, said, h };
  }

  test("a gateway's refusal for the member's budget fails in its words and leaves the team's allowance alone", async () => {
    const { service, said, h } = refusedByMemberBudget("2026-12-03");
    const refused = h.engine.getSeries(await h.engine.resolve("1-1-1", null, null));
    await expect(refused).rejects.toThrow(said);
    await expect(refused).rejects.toMatchObject({ kind: "quota", details: { memberBudget: true } });
    // The team's allowance is not used up: Usage and PCD.LIMITS keep its numbers.
    expect(await h.engine.limits()).toEqual([
      {
        product: "energy_price",
        dataset: "Germany",
        remaining: 480,
        total: 500,
        member: { budget: 10, remaining: 1 },
      },
    ]);
    // This member's engine asks no more for the dataset until the release, saying why alike.
    service.failures = [];
    const calls = service.dataCalls().length;
    const blocked = h.engine.getSeries(await h.engine.resolve("2-2-2", null, null));
    await expect(blocked).rejects.toThrow(said);
    await expect(blocked).rejects.toMatchObject({ kind: "quota" });
    expect(service.dataCalls()).toHaveLength(calls);
  });

  test("a member-budget refusal whose reading named no reset: Data Limits is read again before the next call, and the block lifts at the reset it names", async () => {
    const { service, said, h } = refusedByMemberBudget("2026-12-01");
    await expect(h.engine.getSeries(await h.engine.resolve("1-1-1", null, null))).rejects.toThrow(said);
    const limitCalls = () => service.calls.filter((call) => call.operation === "data_limits").length;
    const readBefore = limitCalls();
    // The gateway's budget comes back on the 1st (its release day), before this engine's (the 3rd).
    const gatewayReset = Date.UTC(2026, 11, 1, 12);
    service.limits.set("energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 0, resetsAt: gatewayReset } },
    });
    service.failures = [];
    const calls = service.dataCalls().length;
    await expect(h.engine.getSeries(await h.engine.resolve("2-2-2", null, null))).rejects.toThrow(said);
    expect(limitCalls()).toBe(readBefore + 1);
    expect(service.dataCalls()).toHaveLength(calls);
    h.clock.now = gatewayReset;
    await h.engine.getSeries(await h.engine.resolve("2-2-2", null, null));
    expect(service.dataCalls().length).toBeGreaterThan(calls);
  });

  /** A member through a team gateway that keeps 1-1-1, 2-2-2 and 3-3-3; the team's Data Limits as given. */
  function memberOfGatewayKeeping(germany: DatasetAllowance) {
    const service = serviceWith("1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5");
    service.limits.set("energy_price", { Germany: germany });
    const h = createHarness({ service });
    h.auth.gateway = { member: "ana@team.example" };
    return { service, h };
  }

  /** The gateway's words for a member whose budget is spent. */
  const SPENT_BUDGET =
    "Quota limit reached for member ana@team.example: until 2026-12-03 the gateway's budget of 10 data requests " +
    "for dataset 'Germany' has 0 left; this request needs 1. Ask the gateway's administrator to raise the budget.";

  /** A member through a team gateway that keeps 1-1-1 to 5-5-5, with their budget spent. */
  function memberWithSpentBudget() {
    return memberOfGatewayKeeping({
      remaining: 480,
      total: 500,
      member: { budget: 10, remaining: 0, resetsAt: Date.UTC(2026, 11, 3, 12) },
    });
  }

  /** The engine's reading of a 403 the gateway answers with `message` to a data call. */
  function refused(message: string, operation: "series_values" | "series_hist" = "series_values"): PcdError {
    return classifyHttpFailure(
      { status: 403, bodyText: JSON.stringify({ message }), retryAfterMs: null },
      { operation, now: NOW, serviceState: serviceState(NOW, 3) },
    );
  }

  test("through a team gateway, series it keeps are served however little the team has left, and Usage keeps the team's figure", async () => {
    // The gateway keeps all five (they cost nothing): its Data Limits stays at 3 left.
    const germany = { remaining: 3, total: 500, member: { budget: 50, remaining: 2 } };
    const { h } = memberOfGatewayKeeping(germany);
    const codes = ["1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5"];
    const requests = await Promise.all(codes.map((code) => h.engine.resolve(code, null, null)));
    const results = await Promise.allSettled(
      requests.map((request) => h.engine.getSeries(request, LATEST_ONLY)),
    );
    expect(results.map((result) => result.status)).toEqual(codes.map(() => "fulfilled"));
    expect(await h.engine.limits()).toEqual([{ product: "energy_price", dataset: "Germany", ...germany }]);
  });

  // The gateway refuses a call whole when it would have to buy a code beyond the member's budget
  // (or the team's allowance); the codes it keeps cost nothing and stay within reach.
  test.each<[string, PcdError]>([
    ["the member's budget", refused(SPENT_BUDGET)],
    ["the team's allowance", refused("Quota limit reached for dataset 'Germany'.")],
  ])(
    "through a team gateway, a refusal for %s stops the code it would buy, not the ones it keeps",
    async (_case, refusal) => {
      const { service, h } = memberWithSpentBudget();
      const fresh = "4-4-4";
      service.failWith((call) =>
        (call.operation === "series_values" || call.operation === "series_hist") &&
        call.codes.some((code) => code.code === fresh)
          ? refusal
          : undefined,
      );
      const codes = ["1-1-1", "2-2-2", "3-3-3", fresh];
      const requests = await Promise.all(codes.map((code) => h.engine.resolve(code, null, null)));
      const results = await Promise.allSettled(
        requests.map((request) => h.engine.getSeries(request, LATEST_ONLY)),
      );
      expect(results.map((result) => result.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "fulfilled",
        "rejected",
      ]);
      expect(results[3]?.status === "rejected" && results[3].reason).toMatchObject({ kind: "quota" });
      // The refused code is not asked again; another series the gateway keeps still is.
      const calls = service.dataCalls().length;
      await expect(
        h.engine.getSeries(await h.engine.resolve(fresh, null, null), LATEST_ONLY),
      ).rejects.toMatchObject({
        kind: "quota",
      });
      expect(service.dataCalls()).toHaveLength(calls);
      await h.engine.getSeries(await h.engine.resolve("5-5-5", null, null), LATEST_ONLY);
      expect(service.dataCalls()).toHaveLength(calls + 1);
    },
  );

  test("through a team gateway, a raised budget read in Data Limits tells the cells refused for the budget, which then get their series", async () => {
    const { service, h } = memberWithSpentBudget();
    service.failWith((call) =>
      (call.operation === "series_values" || call.operation === "series_hist") &&
      call.codes.some((code) => code.code === "4-4-4")
        ? refused(SPENT_BUDGET)
        : undefined,
    );
    const request = await h.engine.resolve("4-4-4", null, null);
    await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toThrow(SPENT_BUDGET);
    let told = 0;
    h.engine.onKeyChange(request.key, () => (told += 1));
    // The administrator raises the budget; the Usage tab's Reload reads it.
    service.failures = [];
    service.limits.set("energy_price", {
      Germany: {
        remaining: 480,
        total: 500,
        member: { budget: 20, remaining: 10, resetsAt: Date.UTC(2026, 11, 3, 12) },
      },
    });
    await h.engine.limitsReport({ reread: true });
    h.tick();
    // The refused cell armed no retry (a quota is no passing failure): without this it kept the refusal.
    expect(told).toBe(1);
    expect((await h.engine.getSeries(request, LATEST_ONLY)).lastFinal).toBe("2026-10");
  });

  test("through a team gateway, a refusal of one code's History leaves its Series Values and its other currencies to the gateway", async () => {
    const { service, h } = memberWithSpentBudget();
    const said = SPENT_BUDGET;
    // The gateway keeps every Series Values key (teammates bought them); History of 4-4-4 it would buy.
    service.failWith((call) =>
      call.operation === "series_hist" && call.codes.some((code) => code.code === "4-4-4")
        ? refused(said, "series_hist")
        : undefined,
    );
    await expect(
      h.engine.getSeries(await h.engine.resolve("4-4-4", null, null), WHOLE_SERIES),
    ).rejects.toThrow(said);
    expect(service.dataCalls().map((call) => call.operation)).toContain("series_values");
    // Another cell: the latest months of 4-4-4 in USD, which the gateway serves free.
    const calls = service.dataCalls().length;
    await h.engine.getSeries(await h.engine.resolve("4-4-4", "USD", null), LATEST_ONLY);
    expect(service.dataCalls().length).toBeGreaterThan(calls);
    // History of 4-4-4 itself is not asked again.
    const before = service.dataCalls().length;
    await expect(
      h.engine.getSeries(await h.engine.resolve("4-4-4", null, null), WHOLE_SERIES),
    ).rejects.toThrow(said);
    expect(service.dataCalls()).toHaveLength(before);
  });

  test("the sandbox has no allowances: no Data Limits call", async () => {
    const h = createHarness({ service: serviceWith("1-1-1") });
    await h.engine.updateSettings({ environment: "sandbox" });
    await h.engine.getSeries(await h.engine.resolve("1-1-1", null, null));
    expect(await h.engine.limits()).toEqual([]);
    expect(h.service.calls.filter((call) => call.operation === "data_limits")).toHaveLength(0);
  });

  test("during a known maintenance window Data Limits are not asked for (nor a token renewed for them)", async () => {
    const h = createHarness({ service: serviceWith("1-1-1") });
    await h.engine.limitsOf("energy_price");
    const limitCalls = () => h.service.calls.filter((call) => call.operation === "data_limits").length;
    const before = limitCalls();
    const until = Date.UTC(2026, 10, 25, 4);
    h.schedule.down = { reason: "maintenance", until };
    h.clock.now += 60 * 60 * 1000;
    // What was read before the window still answers; a product never read says why it cannot be.
    expect(await h.engine.limitsOf("energy_price")).toEqual(h.service.limits.get("energy_price") ?? {});
    await expect(h.engine.limitsOf("commodity_price")).rejects.toMatchObject({
      kind: "unavailable",
      message: expect.stringMatching(/down for maintenance until 22:00 US Central Time/),
    });
    expect(limitCalls()).toBe(before);
  });

  test("limits() reuses a recent answer, then asks again", async () => {
    const h = createHarness({ service: serviceWith("1-1-1") });
    await h.engine.limits();
    await h.engine.limits();
    const limitCalls = () => h.service.calls.filter((call) => call.operation === "data_limits").length;
    expect(limitCalls()).toBe(3);
    h.clock.now += 5 * 60 * 1000;
    await h.engine.limitsOf("energy_price");
    expect(limitCalls()).toBe(4);
  });

  // Which products' Data Limits fail; what limitsReport() answers (rows' products, unread products).
  test.each<[string, ProductId[], ProductId[], ProductId[] | "throws"]>([
    ["one product failed", ["energy_price"], ["commodity_price"], ["energy_price"]],
    [
      "two failed",
      ["energy_price", "industry_economics"],
      ["commodity_price"],
      ["energy_price", "industry_economics"],
    ],
    ["every product failed", ["energy_price", "commodity_price", "industry_economics"], [], "throws"],
  ])(
    "limitsReport(), %s: rows of those read, the others named with their cause",
    async (_case, failing, read, unread) => {
      const service = serviceWith("1-1-1");
      service.limits.set("commodity_price", { Polymers: { remaining: 12, total: 300 } });
      const cause = "HTTP 503 from Data Limits (gave up after 3 retries)";
      service.failWith((call) =>
        call.operation === "data_limits" && failing.includes(call.product)
          ? new PcdError("server", cause)
          : undefined,
      );
      const h = createHarness({ service });
      if (unread === "throws") {
        await expect(h.engine.limitsReport()).rejects.toMatchObject({ kind: "server", message: cause });
        return;
      }
      const report = await h.engine.limitsReport();
      expect(report.rows.map((row) => row.product)).toEqual(read);
      expect(report.unavailable).toEqual(
        unread.map((product) => ({
          product,
          message: cause,
          error: expect.objectContaining({ kind: "server", message: cause }),
        })),
      );
      expect(await h.engine.limits()).toEqual(report.rows);
    },
  );
});

describe("change events", () => {
  test("fire for keys whose data changed, never for unchanged data", async () => {
    const h = createHarness({ service: serviceWith("1-1-1", "2-2-2") });
    const one = await h.engine.resolve("1-1-1", null, null);
    const two = await h.engine.resolve("2-2-2", null, null);
    await Promise.all([h.engine.getSeries(one), h.engine.getSeries(two)]);
    const seen: string[][] = [];
    h.engine.onChange((keys) => seen.push([...keys].sort()));
    h.tick();
    seen.length = 0;

    // Both series get a newer updated_at, but only 1-1-1 has a new month.
    h.service.updateSeries("1-1-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    h.service.updateSeries("2-2-2", { updatedAt: "2026-12-03" });
    await rereadCatalog(h);
    await Promise.all([h.engine.getSeries(one), h.engine.getSeries(two)]);
    h.tick();
    expect(seen).toEqual([[one.key]]);
  });

  test("onMetaChange fires when the catalog changes", async () => {
    const h = createHarness({ service: serviceWith("1-1-1") });
    let meta = 0;
    h.engine.onMetaChange(() => meta++);
    await h.engine.catalog("energy_price");
    h.tick();
    expect(meta).toBe(1);
  });
});

describe("catalog, search and cache facade", () => {
  test("search ranks an exact code first and costs no data request", async () => {
    const service = serviceWith("68520-8-1", "68520-8-12");
    const h = createHarness({ service });
    const hits = await h.engine.search("68520-8-12");
    expect(hits[0]?.info.code).toBe("68520-8-12");
    expect(service.dataCalls()).toHaveLength(0);
  });

  test("a search whose code cannot load is a network error saying so; the next search loads it", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    jest.doMock("../../src/core/search-index", () => {
      throw new Error("Loading chunk search-index failed");
    });
    try {
      const failed = await h.engine.search("68520").catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(PcdError);
      expect(failed).toMatchObject({ kind: "network" });
      expect((failed as PcdError).message).toBe(
        "The add-in could not load its search code (Loading chunk search-index failed): check the connection and search again.",
      );
    } finally {
      jest.dontMock("../../src/core/search-index");
    }
    const hits = await h.engine.search("68520");
    expect(hits.map((hit) => hit.info.code)).toEqual(["68520-8-1"]);
  });

  test("a refresh whose code cannot load is a network error saying so, changing nothing; the next one loads it", async () => {
    const h = createHarness({ service: serviceWith("1-1-1") });
    await h.engine.getSeries(await h.engine.resolve("1-1-1", null, null));
    const callsBefore = h.service.calls.length;
    const cause =
      "The add-in could not load its refresh code (Loading chunk refresh-all failed): check the connection and refresh again.";
    jest.doMock("../../src/core/refresh", () => {
      throw new Error("Loading chunk refresh-all failed");
    });
    try {
      for (const attempt of [() => h.engine.planRefresh(), () => h.engine.refreshAll()]) {
        const failed = await attempt().catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(PcdError);
        expect(failed).toMatchObject({ kind: "network", message: cause });
      }
      // What Excel needs at start does not wait for refresh-all's code.
      expect(h.engine.refreshDue()).toBe(false);
      expect((await h.engine.cacheInfo()).lastRefresh).toBeNull();
      expect(h.service.calls.length).toBe(callsBefore);
    } finally {
      jest.dontMock("../../src/core/refresh");
    }
    const summary = await h.engine.refreshAll();
    expect(summary).toMatchObject({ failed: 0, unchanged: 1 });
    expect((await h.engine.cacheInfo()).lastRefresh).toBe(summary.finishedAt);
  });

  test("sign-out with clearCache removes data and catalogs but keeps settings", async () => {
    const storage = new MemoryStorage();
    await storage.set("pcd:settings", { environment: "live" });
    const h = createHarness({ service: serviceWith("1-1-1"), storage });
    const request = await h.engine.resolve("1-1-1", null, null);
    await h.engine.getSeries(request);
    await h.engine.signOut({ clearCache: true });
    expect(h.engine.peek(request.key)).toBeUndefined();
    expect(
      (await storage.keys()).filter((key) => key.startsWith("pcd:data:") || key.startsWith("pcd:catalog:")),
    ).toEqual([]);
    expect(await storage.get("pcd:settings")).toEqual({ environment: "live" });
    expect(h.auth.signedIn).toBe(false);
  });

  test("a reopened engine serves the cache and catalog from storage without calls", async () => {
    const storage = new MemoryStorage();
    const first = createHarness({ service: serviceWith("1-1-1"), storage });
    const request = await first.engine.resolve("1-1-1", null, null);
    await first.engine.getSeries(request);
    const second = createHarness({ service: serviceWith("1-1-1"), storage });
    second.auth.signedIn = false;
    const reopened = await second.engine.resolve("1-1-1", null, null);
    expect((await second.engine.getSeries(reopened)).lastFinal).toBe("2026-10");
    expect(second.service.calls).toHaveLength(0);
    expect(await second.engine.cacheInfo()).toMatchObject({
      entries: 1,
      persistent: false,
      fallbackReason: null,
    });
  });

  test("idle() waits for History and Series Values", async () => {
    const service = serviceWith("1-1-1");
    const h = createHarness({ service });
    const pending = h.engine.getSeries(await h.engine.resolve("1-1-1", null, null));
    await h.engine.idle();
    expect(operations(service)).toEqual(["series_hist", "series_values"]);
    expect(h.engine.peek("live|energy_price|1-1-1|default|default")?.lastFinal).toBe("2026-10");
    await pending;
  });

  test("clock sanity: the harness starts at NOW", () => {
    expect(createHarness().clock.now).toBe(NOW);
  });
});

describe("quota refusals without a dataset", () => {
  test("a daily quota error fails the call but blocks no dataset", async () => {
    const service = serviceWith("1-1-1", "2-2-2");
    const h = createHarness({ service });
    const daily = new PcdError(
      "quota",
      "Quota limit reached: daily quota of 8000 requests used for 2026-11-20",
      {
        serverMessage: "Quota limit reached: daily quota of 8000 requests used for 2026-11-20",
      },
    );
    service.failWith((call) => (call.operation === "series_hist" ? daily : undefined));
    await expect(h.engine.getSeries(await h.engine.resolve("1-1-1", null, null))).rejects.toMatchObject({
      kind: "quota",
      message: `${daily.message}: the months before 2025-10 of 1-1-1 could not be fetched.`,
    });
    service.failures = [];
    await expect(h.engine.getSeries(await h.engine.resolve("2-2-2", null, null))).resolves.toMatchObject({
      lastFinal: "2026-10",
    });
  });
});

describe("start-up with a broken storage", () => {
  test("ready() still resolves and the engine works from memory", async () => {
    const broken = new MemoryStorage();
    broken.keys = async () => {
      throw new Error("IndexedDB read failed");
    };
    const h = createHarness({ service: serviceWith("1-1-1"), storage: broken });
    await expect(h.engine.ready()).resolves.toBeUndefined();
    expect(h.logs.some((line) => line.includes("IndexedDB read failed"))).toBe(true);
    await expect(h.engine.getSeries(await h.engine.resolve("1-1-1", null, null))).resolves.toMatchObject({
      lastFinal: "2026-10",
    });
  });
});

describe("History answered, Values failed", () => {
  // The failures of the Series Values call that came with History (real shape).
  test.each<[string, PcdError]>([
    ["timed out", new PcdError("timeout", "Series Values timed out after 130 s.")],
    ["malformed", new PcdError("protocol", "The answer of Series Values could not be read.")],
    ["server error", new PcdError("server", "HTTP 500 from Series Values (gave up after 3 retries).")],
    [
      "allowance",
      new PcdError("quota", "Monthly allowance used up for dataset 'Germany'.", { dataset: "Germany" }),
    ],
  ])(
    "%s: never shown as current, not sent again by the cells' re-runs, filled at one request later",
    async (_case, failure) => {
      const service = serviceWith("1-1-1");
      const h = createHarness({ service });
      service.failWith((call) => (call.operation === "series_values" ? failure : undefined));
      const request = await h.engine.resolve("1-1-1", null, null);
      const what = ": the latest months of 1-1-1 could not be fetched.";
      for (const need of [WHOLE_SERIES, LATEST_ONLY, { from: "2026-03", to: "2026-03" }]) {
        const error = await h.engine.getSeries(request, need).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(error).toMatchObject({ kind: failure.kind });
        // The cause first (the ledger words an allowance refusal itself), then what it kept.
        const cause =
          failure.kind === "quota"
            ? "Monthly allowance used up for dataset 'Germany'"
            : failure.message.replace(/\.$/, "");
        expect((error as Error).message.startsWith(cause)).toBe(true);
        expect((error as Error).message.endsWith(what)).toBe(true);
      }
      // The History part is kept and serves cells that read only its months.
      const old = await h.engine.getSeries(request, { from: "2010-01", to: "2010-12" });
      expect(old.staleBecause).toBeUndefined();
      expect(old.lastFinal).toBe("2025-09");
      expect(await h.storage.get(`pcd:data:${request.key}`)).toMatchObject({
        covered: [{ from: null, to: "2025-09" }],
        valuesAsOf: null,
      });
      const sent = service.codesSent();
      expect(sent).toBe(2);

      service.failures = [];
      // Cells re-running at once (another cell's change) do not send the call again.
      if (failure.kind !== "quota") {
        await expect(h.engine.getSeries(request, LATEST_ONLY)).rejects.toMatchObject({ kind: failure.kind });
        expect(service.codesSent()).toBe(sent);
      }
      // The cell's own retry, a minute later, fills the gap at one request.
      h.clock.now += 60_000;
      if (failure.kind === "quota") {
        h.schedule.releaseStart = Date.UTC(2026, 11, 3, 12);
        h.clock.now = Date.UTC(2026, 11, 4);
      }
      const complete = await h.engine.getSeries(request);
      expect(complete.lastFinal).toBe("2026-10");
      expect(complete.finals).toHaveLength(238);
      expect(complete.staleBecause).toBeUndefined();
      expect(service.codesSent()).toBe(sent + 1);
      expect(operations(service).at(-1)).toBe("series_values");
    },
  );

  test("a series younger than 13 months whose Series Values call failed says so and retries (not 'no values yet')", async () => {
    const service = serviceWith("1-1-1");
    service.firstMonth.set("1-1-1", "2026-03");
    const h = createHarness({ service });
    service.failWith((call) =>
      call.operation === "series_values" ? new PcdError("server", "HTTP 502 from Series Values.") : undefined,
    );
    const request = await h.engine.resolve("1-1-1", null, null);
    await expect(h.engine.getSeries(request)).rejects.toMatchObject({
      kind: "server",
      message: "HTTP 502 from Series Values: the latest months of 1-1-1 could not be fetched.",
    });
    service.failures = [];
    h.clock.now += 60_000;
    const data = await h.engine.getSeries(request);
    expect(data.finals.toPoints().map((point) => point.month)[0]).toBe("2026-03");
    expect(data.lastFinal).toBe("2026-10");
  });

  test("an entry written before coverage was recorded, marked pendingValues, asks Series Values only", async () => {
    const storage = new MemoryStorage();
    const key = "live|energy_price|1-1-1|default|default";
    await storage.set(`pcd:data:${key}`, {
      key,
      finals: [{ month: "2025-09", value: 1 }],
      forecasts: [],
      currency: "EUR",
      unit: "MWh",
      updatedAt: "2026-11-04",
      lastFinal: "2025-09",
      fetchedAt: 0,
      catalogUpdatedAt: "2026-11-04",
      pendingValues: true,
    });
    const h = createHarness({ service: serviceWith("1-1-1"), storage });
    const request = await h.engine.resolve("1-1-1", null, null);
    // Not one of the workbook's keys: read from storage when first asked for.
    expect((await h.engine.getSeries(request)).lastFinal).toBe("2026-10");
    expect(operations(h.service)).toEqual(["series_values"]);
  });
});

describe("what a data call tells listeners", () => {
  test("its charges reach meta listeners (the usage bars, LIMITS cells) but not catalog listeners (INFO, SEARCH cells)", async () => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    const request = await h.engine.resolve("68520-8-1", null, null);
    h.tick();
    let meta = 0;
    let catalog = 0;
    h.engine.onMetaChange(() => meta++);
    h.engine.onCatalogChange(() => catalog++);
    await h.engine.getSeries(request, LATEST_ONLY);
    h.tick();
    expect(h.service.dataCalls()).toHaveLength(1);
    expect(meta).toBeGreaterThan(0);
    expect(catalog).toBe(0);
  });
});

describe("resolve", () => {
  test.each([
    [
      "a near miss gets the offered name it was probably meant to be",
      "EURO",
      /: did you mean EUR\? Available: /,
    ],
    ["a name far from every offered one is refused with the list only", "XYZ", /68520-8-1\. Available: /],
  ])("%s", async (_case, currency, message) => {
    const h = createHarness({ service: serviceWith("68520-8-1") });
    await expect(h.engine.resolve("68520-8-1", currency, null)).rejects.toThrow(message);
  });
});
