// The engine against the emulator over real HTTP (127.0.0.1, ephemeral port): the
// allowance and call-count bounds of docs/decisions.md D28, release handling, and the
// failure modes a user meets (expired token, exhausted allowance, 429, maintenance).
import "fake-indexeddb/auto";
import type { Engine, SeriesRequest } from "../../src/core/engine-api";
import type { SeriesInfo } from "../../src/core/model";
import { monthsBetween } from "../../src/core/months";
import { PREVIEW_CATALOG_MAX_AGE_MS } from "../../src/core/refresh";
import { LATEST_ONLY, WHOLE_SERIES } from "../../src/core/series-need";
import { createIdbStorage, createResilientStorage } from "../../src/core/storage";
import { HeldTimers } from "../support/held-timers";
import { startPair, sum, type Pair } from "./support/emulator-pair";

/** Friday 20 Nov 2026, 12:00 US Central: no maintenance, no release day. */
const START = "2026-11-20T18:00:00Z";

function pick<T>(list: readonly T[], count: number, accept: (item: T) => boolean = () => true): T[] {
  return list.filter(accept).slice(0, count);
}

async function resolveAll(engine: Engine, series: readonly SeriesInfo[]): Promise<SeriesRequest[]> {
  return Promise.all(series.map((info) => engine.resolve(info.code, null, null)));
}

describe("engine <-> emulator", () => {
  let pair: Pair;
  afterEach(async () => {
    await pair?.close();
  });

  test("many keys over three products and the industry data types: latest values cost one Series Values request per key, whole tables add History once, a third pass costs nothing", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    const energy = pick(await engine.catalog("energy_price"), 50);
    const commodity = pick(await engine.catalog("commodity_price"), 30);
    const industry = await engine.catalog("industry_economics");
    const utilities = pick(industry, 45, (info) => info.dataType === "utilities");
    const factors = pick(industry, 5, (info) => info.dataType === "location_factor");
    const indexes = pick(industry, 5, (info) => info.dataType === "cost_index");
    expect(factors.length + indexes.length).toBeGreaterThan(0);

    const requests = await resolveAll(engine, [
      ...energy,
      ...commodity,
      ...utilities,
      ...factors,
      ...indexes,
    ]);
    // The same energy series once more in its default currency spelled out (same key) and once in another currency.
    const first = energy[0]!;
    const other = first.availableCurrencies.find((currency) => currency !== first.defaultCurrency)!;
    requests.push(await engine.resolve(first.code, first.defaultCurrency, null));
    requests.push(await engine.resolve(first.code, other, null));
    const distinctKeys = new Set(requests.map((request) => request.key));
    expect(distinctKeys.size).toBe(requests.length - 1);

    await pair.admin("reset");
    const results = await Promise.all(requests.map((request) => engine.getSeries(request, LATEST_ONLY)));
    expect(results.every((data) => data.finals.length > 0 && data.staleBecause === undefined)).toBe(true);

    const groups = new Map<string, string[]>();
    for (const key of distinctKeys) {
      const info = requests.find((request) => request.key === key)!.info;
      const group = `${info.product}|${info.dataType}`;
      groups.set(group, [...(groups.get(group) ?? []), info.code]);
    }
    let expectedCalls = 0;
    for (const codes of groups.values()) {
      const multiplicity = Math.max(...codes.map((code) => codes.filter((c) => c === code).length));
      expectedCalls += Math.max(Math.ceil(codes.length / 40), multiplicity);
    }
    const stats = await pair.stats();
    expect(stats.calls).toMatchObject({ series_hist: 0, series_values: expectedCalls });
    expect(sum(stats.dataRequests)).toBe(distinctKeys.size);

    // The same cells as whole tables: History only is added, once per key.
    await pair.admin("reset");
    const whole = await Promise.all(requests.map((request) => engine.getSeries(request, WHOLE_SERIES)));
    for (const data of whole) {
      expect(data.staleBecause).toBeUndefined();
      // From the series' first month to its latest, without a hole where History meets the window.
      const months = data.finals.toPoints().map((point) => point.month);
      expect(monthsBetween(months[0]!, months.at(-1)!) + 1).toBe(months.length);
      expect(months.at(-1)).toBe(data.info.lastAvailableFinal);
    }
    const withHistory = await pair.stats();
    expect(withHistory.calls).toMatchObject({ series_hist: expectedCalls, series_values: 0 });
    expect(sum(withHistory.dataRequests)).toBe(distinctKeys.size);

    await pair.admin("reset");
    await Promise.all(requests.map((request) => engine.getSeries(request)));
    const again = await pair.stats();
    expect(again.calls.series_hist + again.calls.series_values).toBe(0);
    expect(sum(again.dataRequests)).toBe(0);
  });

  test("after a release, refresh-all fetches only what changed, revised series through History and Series Values", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    const series = pick(await engine.catalog("energy_price"), 12, (info) => info.lag === 0);
    const requests = await resolveAll(engine, series);
    await Promise.all(requests.map((request) => engine.getSeries(request)));
    const before = engine.peek(requests[0]!.key)!;

    const revised = series.slice(0, 2).map((info) => info.code);
    const unchanged = series.slice(2, 5).map((info) => info.code);
    await pair.admin("release", { revise: revised, unchanged });
    // Published off the calendar: the cost preview sees it once its catalog is a few minutes old.
    await pair.setClock(new Date(pair.now() + PREVIEW_CATALOG_MAX_AGE_MS).toISOString());
    await pair.admin("reset");
    const plan = await engine.planRefresh();
    expect(
      plan.items
        .filter((item) => item.action === "none")
        .map((item) => item.code)
        .sort(),
    ).toEqual([...unchanged].sort());
    // Whole tables: a revised series needs History and the window again (real shape).
    const changed = series.length - unchanged.length;
    expect(plan.totalRequests).toBe(changed + revised.length);

    const changedKeys = new Set<string>();
    engine.onChange((keys) => keys.forEach((key) => changedKeys.add(key)));
    const summary = await engine.refreshAll();
    expect(summary).toMatchObject({
      revised: 2,
      updated: series.length - unchanged.length - 2,
      unchanged: unchanged.length,
      failed: 0,
      requestsUsed: changed + revised.length,
    });
    const stats = await pair.stats();
    expect(stats.calls.series_hist).toBe(1);
    expect(stats.calls.series_values).toBe(1);
    expect(sum(stats.dataRequests)).toBe(changed + revised.length);
    const after = engine.peek(requests[0]!.key)!;
    expect(after.lastFinal! > before.lastFinal!).toBe(true);
    // Change events go out on a 0 ms timer set when the answers merged, before refreshAll
    // settled; a 0 ms timer set now fires after it (Node runs equal timers in the order set).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(changedKeys.size).toBe(series.length - unchanged.length);

    await pair.admin("reset");
    expect(await engine.refreshAll()).toMatchObject({ requestsUsed: 0, unchanged: series.length });
  });

  test("an expired token is renewed once and the call retried", async () => {
    pair = await startPair(START, { tokenTtlSeconds: 600 });
    const { engine } = pair;
    const [a, b] = pick(await engine.catalog("commodity_price"), 2);
    await engine.getSeries(await engine.resolve(a!.code, null, null));
    // Only the service's clock moves: the engine still believes in its token and meets a 401.
    await pair.setClock("2026-11-20T19:00:00Z", false);
    await pair.admin("reset");
    const data = await engine.getSeries(await engine.resolve(b!.code, null, null), LATEST_ONLY);
    expect(data.staleBecause).toBeUndefined();
    const stats = await pair.stats();
    expect(stats.calls.access_token).toBe(1);
    expect(sum(stats.dataRequests)).toBe(1);
  });

  test("an allowance exhausted mid-run stops that dataset only", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    const catalog = await engine.catalog("energy_price");
    const germany = pick(catalog, 3, (info) => info.coverage === "Germany");
    const france = pick(catalog, 3, (info) => info.coverage === "France");
    // The ledger learns the limits with a first call...
    await engine.getSeries(await engine.resolve(germany[0]!.code, null, null));
    // ...then the allowance runs out elsewhere (another workbook, another user).
    await pair.admin("reset"); // (resets counters and allowances)
    await pair.admin("quota", { dataset: "Germany", remaining: 0, product: "energy_price" });
    const requests = await resolveAll(engine, [...germany.slice(1), ...france]);
    const results = await Promise.allSettled(requests.map((request) => engine.getSeries(request)));
    const outcome = results.map((result) =>
      result.status === "fulfilled" ? "ok" : (result.reason as Error).message,
    );
    expect(outcome.slice(2)).toEqual(["ok", "ok", "ok"]);
    for (const message of outcome.slice(0, 2)) {
      expect(message).toMatch(
        /^Monthly allowance used up for dataset 'Germany' \(0 of 500 left\); it resets at the next monthly release, 2026-12-03\./,
      );
    }
    // Whole tables: History and Series Values for each French series.
    expect((await pair.stats()).dataRequests).toEqual({ France: 6 });

    // Known exhausted: the next German series fails locally, without a call.
    const dataCalls = async (): Promise<number> => {
      const { calls } = await pair.stats();
      return calls.series_hist + calls.series_values;
    };
    const callsBefore = await dataCalls();
    const more = await engine.resolve(
      pick(catalog, 4, (info) => info.coverage === "Germany")[3]!.code,
      null,
      null,
    );
    await expect(engine.getSeries(more)).rejects.toMatchObject({
      kind: "quota",
      details: { dataset: "Germany" },
    });
    expect(await dataCalls()).toBe(callsBefore);
    expect((await engine.limitsOf("energy_price"))["Germany"]?.remaining).toBe(0);
  });

  test("a 429 storm settles through retries", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    const series = pick(await engine.catalog("energy_price"), 5);
    const requests = await resolveAll(engine, series);
    await pair.admin("faults", { operation: "series_hist", mode: "status", status: 429, count: 3 });
    const results = await Promise.all(requests.map((request) => engine.getSeries(request)));
    expect(results.every((data) => data.staleBecause === undefined && data.finals.length > 0)).toBe(true);
    expect((await pair.stats()).calls.series_hist).toBe(4);
  });

  test("in a maintenance window cached data is served without calls; a failing call never damages the cache", async () => {
    // The store works: its watchdog is held, so a slow machine never sends the cache to memory.
    const storage = createResilientStorage(createIdbStorage("pcd-integration", "kv"), {
      scheduler: new HeldTimers(),
    });
    pair = await startPair(START, {}, storage);
    const { engine } = pair;
    const [cached, fresh] = pick(await engine.catalog("energy_price"), 2);
    const cachedRequest = await engine.resolve(cached!.code, null, null);
    const before = await engine.getSeries(cachedRequest);

    // A malformed answer after a release: the entry stays as it was.
    await pair.admin("release");
    await pair.admin("faults", { operation: "series_values", mode: "malformed" });
    await pair.admin("faults", { operation: "series_hist", mode: "malformed" });
    const summary = await engine.refreshAll();
    expect(summary.failed).toBe(1);
    expect(engine.peek(cachedRequest.key)?.finals).toEqual(before.finals);
    await pair.admin("faults", undefined, "DELETE");

    // The first session's writes are in the store before the workbook is opened again.
    await engine.idle();
    // Wednesday 25 Nov, 08:00 Central: maintenance until 22:00 Central.
    await pair.setClock("2026-11-25T14:00:00Z");
    await pair.admin("reset");
    const reopened = pair.reopen();
    const served = await reopened.getSeries(await reopened.resolve(cached!.code, null, null));
    expect(served.finals).toEqual(before.finals);
    expect(served.staleBecause?.kind).toBe("unavailable");
    await expect(reopened.getSeries(await reopened.resolve(fresh!.code, null, null))).rejects.toThrow(
      /^The service is down for maintenance until 22:00 US Central Time \(.+ your time\); no cached data for/,
    );
    const stats = await pair.stats();
    expect(stats.calls.series_hist + stats.calls.series_values).toBe(0);
    expect(await reopened.cacheInfo()).toMatchObject({ persistent: true, fallbackReason: null });
  });

  test("whole tables on the real shape: History and Series Values, one call each per batch, no gap where they meet", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    const series = pick(
      await engine.catalog("commodity_price"),
      4,
      (info) => info.lastAvailableFinal !== null,
    );
    await pair.admin("reset");
    const results = await Promise.all(
      (await resolveAll(engine, series)).map((request) => engine.getSeries(request)),
    );
    results.forEach((data, i) => {
      expect(data.lastFinal).toBe(series[i]!.lastAvailableFinal);
      const months = data.finals.toPoints().map((point) => point.month);
      // One point per month and no hole where History stops and Values starts.
      expect(monthsBetween(months[0]!, months.at(-1)!) + 1).toBe(months.length);
    });
    const stats = await pair.stats();
    expect(stats.calls).toMatchObject({ series_hist: 1, series_values: 1 });
    expect(sum(stats.dataRequests)).toBe(2 * series.length);
  });

  test("a plan without History: said once, Series Values keeps the cells filled", async () => {
    pair = await startPair(START);
    const { engine } = pair;
    await pair.admin("plan", { history: false });
    const series = pick(await engine.catalog("energy_price"), 3);
    const results = await Promise.all(
      (await resolveAll(engine, series)).map((request) => engine.getSeries(request)),
    );
    expect(results.every((data) => data.finals.length === 13)).toBe(true);
    expect(pair.logs.filter((line) => line.includes("no Series Values History"))).toHaveLength(1);
    const more = await engine.getSeries(
      await engine.resolve(pick(await engine.catalog("energy_price"), 4)[3]!.code, null, null),
    );
    expect(more.finals).toHaveLength(13);
    expect((await pair.stats()).calls.series_hist).toBe(1);
  });

  test("the service description's letter (--shape spec): once History is seen to reach the latest month, whole tables cost History alone", async () => {
    pair = await startPair(START, { shape: "spec" });
    const { engine } = pair;
    const series = pick(
      await engine.catalog("commodity_price"),
      8,
      (info) => info.lastAvailableFinal !== null && info.hasForecast === true,
    );
    const [first, rest] = [series.slice(0, 4), series.slice(4)];
    await pair.admin("reset");
    await Promise.all((await resolveAll(engine, first)).map((request) => engine.getSeries(request)));
    // Until a History answer shows otherwise, PCD assumes the real service's shape.
    expect((await pair.stats()).calls).toMatchObject({ series_hist: 1, series_values: 1 });
    await pair.admin("reset");
    const results = await Promise.all(
      (await resolveAll(engine, rest)).map((request) => engine.getSeries(request)),
    );
    results.forEach((data, i) => {
      expect(data.lastFinal).toBe(rest[i]!.lastAvailableFinal);
      expect(data.forecasts.length).toBeGreaterThan(0);
    });
    const stats = await pair.stats();
    expect(stats.calls).toMatchObject({ series_hist: 1, series_values: 0 });
    expect(sum(stats.dataRequests)).toBe(rest.length);
  });
});
