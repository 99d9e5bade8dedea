import { PcdError } from "../../src/core/errors";
import type { RefreshProgress } from "../../src/core/engine-api";
import { MemoryStorage } from "../../src/core/storage";
import { createHarness, type Harness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODES = ["1-1-1", "2-2-2", "3-3-3", "4-4-4"];

async function workbookWithData(storage = new MemoryStorage()): Promise<Harness> {
  const service = new FakeService();
  service.addSeries(...CODES.slice(0, 3).map((code) => seriesInfo({ code })));
  service.addSeries(seriesInfo({ code: "4-4-4", coverage: "France" }));
  service.limits.set("energy_price", {
    Germany: { remaining: 100, total: 500 },
    France: { remaining: 100, total: 500 },
  });
  const h = createHarness({ service, storage });
  for (const code of CODES) await h.engine.getSeries(await h.engine.resolve(code, null, null));
  return h;
}

/** The next monthly release: 1-1-1 gets a month, 2-2-2 a history revision, 3-3-3 and 4-4-4 nothing. */
function release(h: Harness): void {
  h.service.updateSeries("1-1-1", { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
  h.service.updateSeries("2-2-2", { seriesHistChanged: true, updatedAt: "2026-12-03" });
  h.service.valueOf = (code, month) =>
    code === "2-2-2" && month < "2010-01" ? 999 : month.length + code.length;
}

describe("planRefresh", () => {
  test("plans every workbook key after refreshing the catalogs, with the cost per dataset", async () => {
    const h = await workbookWithData();
    release(h);
    const sent = h.service.codesSent();
    const plan = await h.engine.planRefresh();
    expect(plan.items.map((item) => [item.code, item.action])).toEqual([
      ["1-1-1", "values"],
      ["2-2-2", "history"],
      ["3-3-3", "none"],
      ["4-4-4", "none"],
    ]);
    expect(plan.cost).toEqual([{ product: "energy_price", dataset: "Germany", requests: 2, remaining: 97 }]);
    expect(plan.totalRequests).toBe(2);
    expect(plan.overBudget).toEqual([]);
    expect(h.service.codesSent()).toBe(sent);
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

  test("plans a reopened workbook before any cell evaluates", async () => {
    const storage = new MemoryStorage();
    const first = await workbookWithData(storage);
    await first.engine["workbookKeys"].flushed();
    const reopened = createHarness({ service: first.service, storage });
    release(reopened);
    const plan = await reopened.engine.planRefresh();
    expect(plan.items).toHaveLength(4);
    expect(plan.totalRequests).toBe(2);
  });
});

describe("refreshAll", () => {
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
      requestsUsed: 2,
      failures: [],
    });
    const calls = h.service.dataCalls().slice(before);
    expect(calls.map((call) => [call.operation, call.codes.map((c) => c.code)])).toEqual([
      ["series_values", ["1-1-1"]],
      ["series_hist", ["2-2-2"]],
    ]);
    expect(changed.sort()).toEqual([
      "live|energy_price|1-1-1|default|default",
      "live|energy_price|2-2-2|default|default",
    ]);
    expect(progress[0]).toEqual({ done: 0, total: 0, phase: "catalog" });
    expect(progress.at(-1)).toEqual({ done: 2, total: 2, phase: "done" });
    expect(h.engine.peek("live|energy_price|2-2-2|default|default")?.finals[0]?.value).toBe(999);
    expect((await h.engine.cacheInfo()).lastRefresh).toBe(summary.finishedAt);
    expect(await h.storage.get("pcd:last-refresh")).toBe(summary.finishedAt);
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
    const summary = await h.engine.refreshAll();
    expect(summary.failed).toBe(1);
    expect(summary.failures).toEqual([
      {
        key: "live|energy_price|1-1-1|default|default",
        code: "1-1-1",
        message: "HTTP 503 from Series Values",
      },
    ]);
    expect(summary.revised).toBe(1);
    const after = h.engine.peek("live|energy_price|1-1-1|default|default");
    expect(after?.finals).toEqual(cached?.finals);
    expect(after?.forecasts).toEqual(cached?.forecasts);
    expect(after?.fetchedAt).toBe(cached?.fetchedAt);
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

  test("is not due for an empty workbook", () => {
    expect(createHarness().engine.refreshDue()).toBe(false);
  });
});
