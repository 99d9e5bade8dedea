import { PcdError } from "../../src/core/errors";
import { requestKeyOf, toStoredRequestKey } from "../../src/core/request-key";
import { LATEST_ONLY } from "../../src/core/series-need";
import type { RefreshProgress } from "../../src/core/engine-api";
import type { SeriesInfo } from "../../src/core/model";
import { monthIndex } from "../../src/core/months";
import { PREVIEW_CATALOG_MAX_AGE_MS } from "../../src/core/refresh";
import { MemoryStorage } from "../../src/core/storage";
import { WORKBOOK_KEYS_STORAGE_KEY } from "../../src/core/workbook-keys";
import { createHarness, type Harness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODES = ["1-1-1", "2-2-2", "3-3-3", "4-4-4"];

async function workbookWithData(
  storage = new MemoryStorage(),
  extra: readonly SeriesInfo[] = [],
): Promise<Harness> {
  const service = new FakeService();
  service.addSeries(...CODES.slice(0, 3).map((code) => seriesInfo({ code })));
  service.addSeries(seriesInfo({ code: "4-4-4", coverage: "France" }));
  service.addSeries(...extra);
  service.limits.set("energy_price", {
    Germany: { remaining: 100, total: 500 },
    France: { remaining: 100, total: 500 },
  });
  const h = createHarness({ service, storage });
  for (const code of [...CODES, ...extra.map((info) => info.code)])
    await h.engine.getSeries(await h.engine.resolve(code, null, null));
  return h;
}

/** The next monthly release: 1-1-1 gets a month, 2-2-2 a history revision, 3-3-3 and 4-4-4 nothing. */
function release(h: Harness): void {
  // It starts after the catalogs were read (so the cost preview reads them again).
  h.clock.now += 60_000;
  h.schedule.releaseStart = h.clock.now;
  h.clock.now += 60_000;
  h.service.updateSeries("1-1-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
  h.service.updateSeries("2-2-2", { seriesHistChanged: true, updatedAt: "2026-12-03" });
  h.service.valueOf = (code, month) =>
    code === "2-2-2" && month < "2010-01" ? 999 : month.length + code.length;
}

/** The release, with Germany's allowance down to `left` (France's plenty) when it is read again. */
function releaseLeaving(h: Harness, left: number): void {
  release(h);
  h.service.limits.set("energy_price", {
    Germany: { remaining: left, total: 500 },
    France: { remaining: 100, total: 500 },
  });
  h.schedule.releaseStart = h.clock.now + 1;
  h.clock.now += 2;
}

describe("planRefresh", () => {
  test("plans every workbook key after refreshing the catalogs, with the cost per dataset", async () => {
    const h = await workbookWithData();
    release(h);
    const sent = h.service.codesSent();
    const plan = await h.engine.planRefresh();
    // The cells show whole series: a revision buys History and the window again (the real
    // service's History ends before the window).
    expect(plan.items.map((item) => [item.code, item.action])).toEqual([
      ["1-1-1", "values"],
      ["2-2-2", "history+values"],
      ["3-3-3", "none"],
      ["4-4-4", "none"],
    ]);
    // Data Limits read before the release are read afresh (the allowances reset then).
    expect(plan.cost).toEqual([{ product: "energy_price", dataset: "Germany", requests: 3, remaining: 100 }]);
    expect(plan.catalogAsOf).toBe(h.clock.now);
    expect(plan.releaseSinceCatalog).toBe(false);
    expect(plan.totalRequests).toBe(3);
    expect(plan.overBudget).toEqual([]);
    expect(h.service.codesSent()).toBe(sent);
  });

  test.each<[string, (h: Harness) => void, boolean]>([
    ["a fresh catalog is not read again", () => undefined, false],
    [
      "a catalog a few minutes old is read again",
      (h) => {
        h.clock.now += PREVIEW_CATALOG_MAX_AGE_MS;
      },
      true,
    ],
    [
      "a catalog read before a release started is read again",
      (h) => {
        h.schedule.releaseStart = h.clock.now + 1;
        h.clock.now += 2;
      },
      true,
    ],
  ])("%s, and the preview says as of when", async (_case, elapse, reread) => {
    const h = await workbookWithData();
    const readAt = h.clock.now;
    const infoCalls = (): number => h.service.calls.filter((call) => call.operation === "series_info").length;
    const before = infoCalls();
    elapse(h);
    const plan = await h.engine.planRefresh();
    expect(infoCalls() - before).toBe(reread ? 1 : 0);
    expect(plan.catalogAsOf).toBe(reread ? h.clock.now : readAt);
    expect(plan.releaseSinceCatalog).toBe(false);
  });

  test("after a release, a catalog that cannot be read again gives its time and says a release came since", async () => {
    const h = await workbookWithData();
    const readAt = h.clock.now;
    release(h);
    h.service.failWith((call) =>
      call.operation === "series_info"
        ? new PcdError("network", "The service could not be reached.")
        : undefined,
    );
    const plan = await h.engine.planRefresh();
    expect(plan.catalogAsOf).toBe(readAt);
    expect(plan.releaseSinceCatalog).toBe(true);
  });

  test("lists datasets whose remaining allowance is smaller than the cost", async () => {
    const h = await workbookWithData();
    release(h);
    h.service.limits.set("energy_price", {
      Germany: { remaining: 1, total: 500 },
      France: { remaining: 100, total: 500 },
    });
    h.schedule.releaseStart = h.clock.now + 1;
    h.clock.now += 2;
    expect((await h.engine.planRefresh()).overBudget).toEqual(["Germany"]);
  });

  // A row per allowance left in the short dataset: the preview's cost per dataset is what
  // the refresh then charges (the ledger sends no more than is left).
  test.each([
    ["none left", 0],
    ["one left", 1],
    ["two left", 2],
  ])(
    "a dataset short of allowance (%s): the preview's cost is what the refresh charges",
    async (_case, left) => {
      const h = await workbookWithData();
      releaseLeaving(h, left);
      const plan = await h.engine.planRefresh();
      expect(plan.overBudget).toEqual(["Germany"]);
      const germany = plan.cost.find((row) => row.dataset === "Germany");
      expect(germany).toMatchObject({ needed: 3, remaining: left });
      const sent = h.service.codesSent();
      const summary = await h.engine.refreshAll();
      expect(summary.requestsUsed).toBe(h.service.codesSent() - sent);
      expect(germany?.requests ?? 0).toBe(summary.requestsUsed);
      expect(plan.totalRequests).toBe(summary.requestsUsed);
    },
  );

  // Through a team gateway nothing is held back for the allowance figures: the series it keeps
  // cost nothing, so the preview's cost is what the refresh asks it for.
  test.each([
    ["none left", 0],
    ["one left", 1],
  ])(
    "through a team gateway, a dataset short of allowance (%s): the preview's cost is what the refresh asks it for",
    async (_case, left) => {
      const h = await workbookWithData();
      h.auth.gateway = { member: "ana@team.example" };
      releaseLeaving(h, left);
      const plan = await h.engine.planRefresh();
      expect(plan.throughGateway).toBe(true);
      expect(plan.overBudget).toEqual(["Germany"]);
      const germany = plan.cost.find((row) => row.dataset === "Germany");
      expect(germany).toEqual({ product: "energy_price", dataset: "Germany", requests: 3, remaining: left });
      const sent = h.service.codesSent();
      await h.engine.refreshAll();
      expect(h.service.codesSent() - sent).toBe(plan.totalRequests);
    },
  );

  test("directly, the preview does not say it goes through a gateway", async () => {
    const h = await workbookWithData();
    release(h);
    expect((await h.engine.planRefresh()).throughGateway).toBeUndefined();
  });

  test("plans a reopened workbook before any cell evaluates", async () => {
    const storage = new MemoryStorage();
    const first = await workbookWithData(storage);
    await first.engine.idle();
    const reopened = createHarness({ service: first.service, storage });
    release(reopened);
    const plan = await reopened.engine.planRefresh();
    expect(plan.items).toHaveLength(4);
    expect(plan.totalRequests).toBe(3);
  });

  test("plans by what the cells read: a dashboard of latest values costs one Series Values request per key", async () => {
    const storage = new MemoryStorage();
    const first = await workbookWithData(storage);
    // The workbook's cells now show latest values only (the whole-series cells were deleted).
    const releases = CODES.map((code) =>
      first.engine.retainKey(
        requestKeyOf({ environment: "live", product: "energy_price", code, currencyId: null, unitId: null })
          .id,
        LATEST_ONLY,
      ),
    );
    await first.engine.idle();
    const reopened = createHarness({ service: first.service, storage });
    release(reopened);
    const plan = await reopened.engine.planRefresh();
    expect(plan.items.map((item) => [item.code, item.action])).toEqual([
      ["1-1-1", "values"],
      ["2-2-2", "values"],
      ["3-3-3", "none"],
      ["4-4-4", "none"],
    ]);
    expect(plan.totalRequests).toBe(2);
    const summary = await reopened.engine.refreshAll();
    expect(summary.requestsUsed).toBe(2);
    expect(reopened.service.dataCalls().at(-1)?.operation).toBe("series_values");
    for (const release of releases) release();
  });
});

describe("refreshAll", () => {
  test.each([
    ["directly: the requests counted are the service's charge", false],
    ["through a team gateway: they are its answers, said so", true],
  ])("%s", async (_case, throughGateway) => {
    const h = await workbookWithData();
    if (throughGateway) h.auth.gateway = { member: "ana@team.example" };
    release(h);
    const summary = await h.engine.refreshAll();
    expect(summary.requestsUsed).toBe(3);
    expect(summary.throughGateway).toBe(throughGateway ? true : undefined);
  });

  test("fetches only what changed, revised series through History, and summarises", async () => {
    const h = await workbookWithData();
    release(h);
    const before = h.service.dataCalls().length;
    const progress: RefreshProgress[] = [];
    h.tick();
    const changed: string[] = [];
    h.engine.onChange((keys) => changed.push(...keys));
    const summary = await h.engine.refreshAll((event) => progress.push(event));
    h.tick();
    expect(summary).toMatchObject({
      updated: 1,
      revised: 1,
      unchanged: 2,
      failed: 0,
      requestsUsed: 3,
      failures: [],
    });
    const calls = h.service.dataCalls().slice(before);
    expect(calls.map((call) => [call.operation, call.codes.map((c) => c.code).sort()]).sort()).toEqual([
      ["series_hist", ["2-2-2"]],
      ["series_values", ["1-1-1", "2-2-2"]],
    ]);
    expect(changed.sort()).toEqual([
      "live|energy_price|1-1-1|default|default",
      "live|energy_price|2-2-2|default|default",
    ]);
    // The catalog step counts the products it checks (one here), never "0 of 0".
    expect(progress.slice(0, 2)).toEqual([
      { done: 0, total: 1, phase: "catalog" },
      { done: 1, total: 1, phase: "catalog" },
    ]);
    expect(progress.at(-1)).toEqual({ done: 2, total: 2, phase: "done" });
    expect(h.engine.peek("live|energy_price|2-2-2|default|default")?.finals.valueAt(0)).toBe(999);
    expect((await h.engine.cacheInfo()).lastRefresh).toBe(summary.finishedAt);
    expect(await h.storage.get("pcd:last-refresh")).toBe(summary.finishedAt);
  });

  test("lists what the release changed per key: the new month, the revised history (before, after, change %)", async () => {
    const h = await workbookWithData();
    release(h);
    // Only 2-2-2's history before 2010 moves; every other value stays as cached.
    const original = (code: string, month: string): number => monthIndex(month) + code.length;
    h.service.valueOf = (code, month) =>
      code === "2-2-2" && month < "2007-03" ? 999 : original(code, month);
    const summary = await h.engine.refreshAll();
    const changes = summary.changes ?? [];
    expect(changes.map((change) => change.code)).toEqual(["1-1-1", "2-2-2"]);
    expect(changes[0]?.months).toEqual([
      {
        month: "2026-11",
        kind: "new",
        before: null,
        after: original("1-1-1", "2026-11"),
        changePercent: null,
      },
    ]);
    const before = original("2-2-2", "2007-01");
    expect(changes[1]?.months.map((month) => [month.month, month.kind, month.before, month.after])).toEqual([
      ["2007-01", "revised", before, 999],
      ["2007-02", "revised", before + 1, 999],
    ]);
    expect(changes[1]?.months[0]?.changePercent).toBeCloseTo(((999 - before) / before) * 100, 10);
    // A second refresh finds nothing new.
    expect((await h.engine.refreshAll()).changes).toEqual([]);
  });

  test("a second refresh right after spends nothing", async () => {
    const h = await workbookWithData();
    release(h);
    await h.engine.refreshAll();
    const again = await h.engine.refreshAll();
    expect(again).toMatchObject({ updated: 0, revised: 0, unchanged: 4, requestsUsed: 0 });
  });

  test("failures carry their cause and leave the cached data intact", async () => {
    const h = await workbookWithData();
    release(h);
    const cached = h.engine.peek("live|energy_price|1-1-1|default|default");
    h.service.failWith((call) =>
      call.operation === "series_values" ? new PcdError("server", "HTTP 503 from Series Values") : undefined,
    );
    const revisedBefore = h.engine.peek("live|energy_price|2-2-2|default|default");
    const summary = await h.engine.refreshAll();
    expect(summary.failed).toBe(2);
    expect(summary.failures).toEqual(
      ["1-1-1", "2-2-2"].map((code) => ({
        key: `live|energy_price|${code}|default|default`,
        code,
        message: "HTTP 503 from Series Values",
      })),
    );
    expect(summary.revised).toBe(0);
    const after = h.engine.peek("live|energy_price|1-1-1|default|default");
    expect(after?.finals).toEqual(cached?.finals);
    expect(after?.forecasts).toEqual(cached?.forecasts);
    expect(after?.fetchedAt).toBe(cached?.fetchedAt);
    // The revised History arrived, its window did not: the window's months stay as the last
    // release had them (the cell shows that release, marked stale, and retries).
    const revised = h.engine.peek("live|energy_price|2-2-2|default|default");
    expect(revised?.finals.valueAt(0)).toBe(999);
    expect(revised?.lastFinal).toBe(revisedBefore?.lastFinal);
    expect(revised?.forecasts).toEqual(revisedBefore?.forecasts);
  });

  test.each([
    ["not signed in", (h: Harness) => (h.auth.signedIn = false), "not_signed_in"],
    [
      "maintenance",
      (h: Harness) => (h.schedule.down = { reason: "maintenance", until: h.clock.now + 3_600_000 }),
      "unavailable",
    ],
  ])("refuses to start when %s", async (_case, arrange, kind) => {
    const h = await workbookWithData();
    arrange(h);
    await expect(h.engine.refreshAll()).rejects.toMatchObject({ kind });
  });

  test("on release day, a catalog that answers ends the downtime early", async () => {
    const h = await workbookWithData();
    release(h);
    h.schedule.down = { reason: "release", until: h.clock.now + 3_600_000 };
    const summary = await h.engine.refreshAll();
    expect(summary.updated + summary.revised).toBe(2);
    expect(h.engine.serviceState().available).toBe(true);
  });
});

// F-22 (RELIABILITY.md): a product whose Series Info could not be refreshed must not count as
// "unchanged" because its cached catalog says nothing changed: its series were not checked.
describe("refreshAll when Series Info cannot be refreshed (F-22)", () => {
  const ENERGY_KEYS = CODES.map((code) => `live|energy_price|${code}|default|default`);
  const COMMODITY_KEY = "live|commodity_price|5-5-5|default|default";
  const unchecked = (product: string, error: string): string =>
    `Series Info of ${product} could not be refreshed (${error}); its series were not checked for new data`;

  /** A release has started since the data was fetched: the pane offers a refresh. */
  function releaseStarted(h: Harness): void {
    release(h);
    h.schedule.releaseStart = h.clock.now + 1;
    h.clock.now += 2;
    expect(h.engine.refreshDue()).toBe(true);
  }

  /** The energy workbook plus a commodity series; the release gives 5-5-5 a new month too. */
  async function twoProducts(): Promise<Harness> {
    const h = await workbookWithData(new MemoryStorage(), [
      seriesInfo({ code: "5-5-5", product: "commodity_price", coverage: "Metals" }),
    ]);
    h.service.limits.set("commodity_price", { Metals: { remaining: 100, total: 500 } });
    releaseStarted(h);
    h.service.updateSeries("5-5-5", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
    return h;
  }

  function failCatalogOf(h: Harness, products: readonly string[], error: string): void {
    h.service.failWith((call) =>
      call.operation === "series_info" && products.includes(call.product)
        ? new PcdError("server", error)
        : undefined,
    );
  }
  test("a healthy product with nothing new still makes the refresh count when another's catalog fails", async () => {
    const h = await workbookWithData(new MemoryStorage(), [
      seriesInfo({ code: "5-5-5", product: "commodity_price", coverage: "Metals" }),
    ]);
    h.service.limits.set("commodity_price", { Metals: { remaining: 100, total: 500 } });
    // A release started, but it brought nothing new for the energy series.
    h.schedule.releaseStart = h.clock.now + 1;
    h.clock.now += 2;
    expect(h.engine.refreshDue()).toBe(true);
    failCatalogOf(h, ["commodity_price"], "HTTP 503 from Series Info");
    const summary = await h.engine.refreshAll();
    expect(summary).toMatchObject({ updated: 0, revised: 0, failed: 1, requestsUsed: 0 });
    expect(summary.failures.map((failure) => failure.key)).toEqual([COMMODITY_KEY]);
    // Energy was checked against the release: the refresh happened, its one failure is listed.
    expect(h.engine.refreshDue()).toBe(false);
  });

  test.each([
    {
      failing: ["energy_price"],
      failedKeys: ENERGY_KEYS,
      counts: { updated: 1, revised: 0, unchanged: 0, requestsUsed: 1 },
      recorded: true,
    },
    {
      failing: ["commodity_price"],
      failedKeys: [COMMODITY_KEY],
      counts: { updated: 1, revised: 1, unchanged: 2, requestsUsed: 3 },
      recorded: true,
    },
    {
      failing: ["energy_price", "commodity_price"],
      failedKeys: [...ENERGY_KEYS, COMMODITY_KEY],
      counts: { updated: 0, revised: 0, unchanged: 0, requestsUsed: 0 },
      recorded: false,
    },
  ])(
    "Series Info of $failing failing: those keys fail with the cause at no cost, the others refresh (last refresh recorded: $recorded)",
    async ({ failing, failedKeys, counts, recorded }) => {
      const h = await twoProducts();
      const lastBefore = await h.storage.get("pcd:last-refresh");
      failCatalogOf(h, failing, "HTTP 503 from Series Info");
      const before = h.service.dataCalls().length;
      const summary = await h.engine.refreshAll();

      expect(summary).toMatchObject({ ...counts, failed: failedKeys.length });
      expect(
        [...summary.failures]
          .sort((a, b) => a.key.localeCompare(b.key))
          .map(({ key, message }) => [key, message]),
      ).toEqual(
        [...failedKeys]
          .sort()
          .map((key) => [key, unchecked(key.split("|")[1]!, "HTTP 503 from Series Info")]),
      );
      // No data request for a product whose catalog could not be read.
      const calls = h.service.dataCalls().slice(before);
      expect(calls.filter((call) => failing.includes(call.product))).toEqual([]);
      expect((await h.engine.cacheInfo()).lastRefresh === summary.finishedAt).toBe(recorded);
      expect(await h.storage.get("pcd:last-refresh")).toBe(recorded ? summary.finishedAt : lastBefore);
      expect(h.engine.refreshDue()).toBe(!recorded);
    },
  );

  test("keys the cached catalog already says need data are still fetched, but the refresh does not count as done", async () => {
    const h = await workbookWithData();
    releaseStarted(h);
    // The release reached the cached catalog (the preview refreshed it); then Series Info fails.
    await h.engine.planRefresh();
    failCatalogOf(h, ["energy_price"], "HTTP 503 from Series Info");
    // The next preview reads the catalog again once it is a few minutes old.
    h.clock.now += PREVIEW_CATALOG_MAX_AGE_MS;
    const plan = await h.engine.planRefresh();
    expect(plan.items.map((item) => [item.code, item.action, item.reason])).toEqual([
      [
        "1-1-1",
        "values",
        expect.stringMatching(
          /; planned with the cached catalog: Series Info of energy_price could not be refreshed \(HTTP 503 from Series Info\)$/,
        ),
      ],
      ["2-2-2", "history+values", expect.stringContaining("planned with the cached catalog")],
      ["3-3-3", "none", unchecked("energy_price", "HTTP 503 from Series Info")],
      ["4-4-4", "none", unchecked("energy_price", "HTTP 503 from Series Info")],
    ]);
    expect(plan.totalRequests).toBe(3);

    const summary = await h.engine.refreshAll();
    expect(summary).toMatchObject({ updated: 1, revised: 1, unchanged: 0, failed: 2, requestsUsed: 3 });
    expect(summary.failures.map((failure) => failure.code).sort()).toEqual(["3-3-3", "4-4-4"]);
    // Every product's catalog failed: nothing was checked against the release.
    expect(h.engine.refreshDue()).toBe(true);
    expect(await h.storage.get("pcd:last-refresh")).toBeUndefined();
  });

  test("a code missing from a catalog that could not be fetched is not called unsubscribed", async () => {
    const storage = new MemoryStorage();
    const first = await workbookWithData(storage);
    await first.engine.idle();
    for (const key of await storage.keys()) if (key.startsWith("pcd:catalog:")) await storage.delete(key);
    const reopened = createHarness({ service: first.service, storage });
    failCatalogOf(reopened, ["energy_price"], "HTTP 503 from Series Info");
    const summary = await reopened.engine.refreshAll();
    expect(summary.failed).toBe(4);
    expect(new Set(summary.failures.map((failure) => failure.message))).toEqual(
      new Set([unchecked("energy_price", "HTTP 503 from Series Info")]),
    );
  });

  test("the cause stays within Excel's 255 characters and keeps its meaning", async () => {
    const h = await workbookWithData();
    release(h);
    failCatalogOf(h, ["energy_price"], `HTTP 502 from Series Info: ${"<html>".repeat(200)}`);
    const summary = await h.engine.refreshAll();
    expect(summary.failed).toBe(4);
    for (const { message } of summary.failures) {
      expect(message.length).toBeLessThanOrEqual(255);
      expect(message).toMatch(
        /^Series Info of energy_price could not be refreshed \(HTTP 502 from Series Info: <html>/,
      );
      expect(message).toMatch(/…\); its series were not checked for new data$/);
    }
  });
});

describe("refreshDue", () => {
  test("is due once a release has started since the last refresh", async () => {
    const h = await workbookWithData();
    // Data fetched after the latest release: nothing due.
    expect(h.engine.refreshDue()).toBe(false);
    h.schedule.releaseStart = h.clock.now + 1000;
    h.clock.now += 2000;
    expect(h.engine.refreshDue()).toBe(true);
    await h.engine.refreshAll();
    expect(h.engine.refreshDue()).toBe(false);
  });

  test("is not due on release day before the data is published, and is once the catalog answers", async () => {
    const h = await workbookWithData();
    h.schedule.previousReleaseStart = h.schedule.releaseStart;
    h.schedule.releaseStart = h.clock.now + 1000;
    h.clock.now += 2000;
    h.schedule.down = { reason: "release", until: h.clock.now + 3_600_000 };
    // 06:00 on release day: closed, nothing published, and the preview says so.
    h.service.failWith((call) =>
      call.operation === "series_info" ? new PcdError("unavailable", "503 release") : undefined,
    );
    expect(h.engine.refreshDue()).toBe(false);
    const closedPlan = await h.engine.planRefresh();
    expect(closedPlan.closed).toEqual({ reason: "release", until: h.clock.now + 3_600_000 });
    expect(closedPlan.releaseSinceCatalog).toBe(false);
    expect(h.engine.refreshDue()).toBe(false);
    // The data is published: the preview the user opens next probes the catalog (the
    // preview's own re-plans call nothing in the window), it is answered, the downtime
    // ends, the offer appears.
    h.service.failures = [];
    h.clock.now += 60_000;
    const openPlan = await h.engine.planRefresh({ recheck: true });
    expect(openPlan.closed).toBeUndefined();
    expect(h.engine.refreshDue()).toBe(true);
  });

  test("a refresh refused on release day says the workbook keeps its data, not that it has none", async () => {
    const h = await workbookWithData();
    h.schedule.down = { reason: "release", until: h.clock.now + 3_600_000 };
    h.service.failWith((call) =>
      call.operation === "series_info" ? new PcdError("unavailable", "503 release") : undefined,
    );
    const refused = await h.engine.refreshAll().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ kind: "unavailable" });
    const text = (refused as Error).message;
    expect(text).toMatch(
      /^The service is down for the monthly data release until 22:00 US Central Time at the latest/,
    );
    expect(text).toMatch(/no refresh can run until then, and nothing in the workbook was changed\.$/);
    expect(text).not.toMatch(/no cached data/);
  });

  test("a release published after the calendar's release day is due once a catalog read shows it", async () => {
    const h = await workbookWithData();
    // The calendar's release day is over: a refresh then finds nothing new (the release is late).
    h.schedule.releaseStart = h.clock.now + 1000;
    h.clock.now += 2000;
    expect(h.engine.refreshDue()).toBe(true);
    await h.engine.refreshAll();
    expect(h.engine.refreshDue()).toBe(false);
    // A day later the data comes out; the preview the user opens reads the catalog.
    h.clock.now += 86_400_000;
    h.service.updateSeries("1-1-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-04" });
    const plan = await h.engine.planRefresh({ recheck: true });
    expect(plan.items.map((item) => item.action)).toContain("values");
    expect(h.engine.refreshDue()).toBe(true);
    await h.engine.refreshAll();
    expect(h.engine.refreshDue()).toBe(false);
  });

  test("is not due for an empty workbook", () => {
    expect(createHarness().engine.refreshDue()).toBe(false);
  });
});

describe("a key list planted in a shared workbook", () => {
  /** A workbook whose saved key list was written by someone else, opened with no formula evaluated. */
  async function opened(
    planted: readonly unknown[],
    workbookCodes?: () => Promise<ReadonlySet<string>>,
  ): Promise<Harness> {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, planted);
    const service = new FakeService();
    service.addSeries(
      seriesInfo({ code: "1-1-1" }),
      seriesInfo({ code: "2-2-2" }),
      seriesInfo({ code: "3-3-3" }),
    );
    service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
    return createHarness({ service, storage, workbookCodes });
  }
  const stored = (code: string, currencyId: number | null, unitId: number | null = null) => ({
    ...toStoredRequestKey(
      requestKeyOf({ environment: "live", product: "energy_price", code, currencyId, unitId }),
    ),
    need: LATEST_ONLY,
  });

  test("currency and unit IDs the series does not offer are dropped: nothing is bought for them", async () => {
    const planted = [
      ...Array.from({ length: 600 }, (_, i) => stored("1-1-1", 1000 + i)),
      stored("2-2-2", null, 4242),
      stored("2-2-2", 1),
    ];
    const h = await opened(planted);
    const plan = await h.engine.planRefresh();
    // USD (ID 1) is offered by 2-2-2; every other planted ID is not.
    expect(plan.items.map((item) => item.key)).toEqual(["live|energy_price|2-2-2|1|default"]);
    const summary = await h.engine.refreshAll();
    expect(summary.requestsUsed).toBe(1);
    expect(h.service.codesSent()).toBe(1);
  });

  test("a key saved twice, or spelled with the series default, is refreshed once", async () => {
    // EUR (ID 3) is 1-1-1's default currency: the same request as leaving it out.
    const h = await opened([stored("1-1-1", null), stored("1-1-1", 3), stored("1-1-1", null)]);
    const plan = await h.engine.planRefresh();
    expect(plan.items.map((item) => item.key)).toEqual(["live|energy_price|1-1-1|default|default"]);
    expect(plan.totalRequests).toBe(1);
  });

  test.each<[string, number | undefined, boolean]>([
    ["within the share", 500, true],
    ["over the share", 1, false],
  ])("a refresh nobody reviewed runs only %s of what remains", async (_name, remaining, runs) => {
    const h = await opened([stored("1-1-1", null), stored("2-2-2", null), stored("2-2-2", 1)]);
    h.service.limits.set("energy_price", { Germany: { remaining: remaining ?? 0, total: 500 } });
    const refresh = h.engine.refreshAll(undefined, { maxShareOfRemaining: 0.5 });
    if (runs) {
      expect((await refresh).requestsUsed).toBe(3);
    } else {
      await expect(refresh).rejects.toThrow(
        "Refresh all did not run: it would use 3 of the 1 left for Germany (energy_price), more than 50% of what is left. Open the PCD pane's Usage tab to see what it would fetch, then refresh there.",
      );
      expect(h.service.codesSent()).toBe(0);
    }
  });

  test("through a team gateway, a refresh nobody reviewed says it would ask for up to that many", async () => {
    const h = await opened([stored("1-1-1", null), stored("2-2-2", null), stored("2-2-2", 1)]);
    h.auth.gateway = { member: "ana@team.example" };
    h.service.limits.set("energy_price", { Germany: { remaining: 1, total: 500 } });
    await expect(h.engine.refreshAll(undefined, { maxShareOfRemaining: 0.5 })).rejects.toThrow(
      "Refresh all did not run: it would ask the team's gateway for up to 3 of the 1 left for Germany (energy_price), more than 50% of what is left.",
    );
    expect(h.service.codesSent()).toBe(0);
  });

  test("a refresh nobody reviewed does not run where a dataset's allowance is unknown", async () => {
    const h = await opened([stored("1-1-1", null)]);
    h.service.limits.set("energy_price", {});
    await expect(h.engine.refreshAll(undefined, { maxShareOfRemaining: 0.5 })).rejects.toThrow(
      "Refresh all did not run: it would use 1 for Germany (energy_price), whose remaining allowance could not be read, more than 50% of what is left.",
    );
    expect(h.service.codesSent()).toBe(0);
  });

  test("a key a cell asked for this session that the series no longer offers fails with its cause, counted", async () => {
    const h = await opened([]);
    const release = h.engine.retainKey((await h.engine.resolve("2-2-2", "USD", null)).key, LATEST_ONLY);
    h.service.updateSeries("2-2-2", { availableCurrencies: ["EUR"] });
    const summary = await h.engine.refreshAll();
    expect(summary.failed).toBe(1);
    expect(summary.failures[0]?.message).toBe(
      "2-2-2 no longer offers what a cell asks for (Currency '1' is not offered for 2-2-2. Available: EUR); the cell says so when it calculates",
    );
    expect(h.service.codesSent()).toBe(0);
    release();
  });

  test("refresh-all given keys refreshes only those", async () => {
    const h = await opened([stored("1-1-1", null), stored("2-2-2", null)]);
    const summary = await h.engine.refreshAll(undefined, {
      keys: ["live|energy_price|2-2-2|default|default"],
    });
    expect(summary.requestsUsed).toBe(1);
    expect(h.service.codesSent()).toBe(1);
  });
});

describe("saved keys the workbook's cells do not name", () => {
  const stored = (code: string) => ({
    ...toStoredRequestKey(
      requestKeyOf({ environment: "live", product: "energy_price", code, currencyId: null, unitId: null }),
    ),
    need: LATEST_ONLY,
  });
  async function opened(workbookCodes: () => Promise<ReadonlySet<string>>): Promise<Harness> {
    const storage = new MemoryStorage();
    await storage.set(WORKBOOK_KEYS_STORAGE_KEY, [stored("1-1-1"), stored("2-2-2"), stored("3-3-3")]);
    const service = new FakeService();
    service.addSeries(...["1-1-1", "2-2-2", "3-3-3"].map((code) => seriesInfo({ code })));
    service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
    return createHarness({ service, storage, workbookCodes });
  }

  test.each<[string, () => Promise<ReadonlySet<string>>, string[]]>([
    ["a code a formula or cell names is planned", async () => new Set(["2-2-2"]), ["2-2-2", "3-3-3"]],
    ["a workbook naming none plans only what a cell held", async () => new Set<string>(), ["3-3-3"]],
    [
      "a workbook that cannot be read plans only what a cell held",
      () => Promise.reject(new Error("no workbook")),
      ["3-3-3"],
    ],
  ])("%s; the preview and the refresh agree", async (_name, workbookCodes, planned) => {
    const h = await opened(workbookCodes);
    // A cell of this session shows 3-3-3 (its formula may read its code from elsewhere).
    const release = h.engine.retainKey((await h.engine.resolve("3-3-3", null, null)).key, LATEST_ONLY);
    const plan = await h.engine.planRefresh();
    expect(plan.items.map((item) => item.code)).toEqual(planned);
    const summary = await h.engine.refreshAll();
    expect(summary.updated + summary.unchanged + summary.revised + summary.failed).toBe(planned.length);
    expect(h.service.codesSent()).toBe(planned.length);
    release();
  });
});
