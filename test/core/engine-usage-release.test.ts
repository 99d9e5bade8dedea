// Usage shows what the service says is left. A reading taken before the allowances reset is
// last month's: after a release the engine learns of (the calendar's, or one the catalog
// shows first) it is not reused; the user's Reload always reads again (or says why not);
// after a refresh the numbers are the service's own.
import { LIMITS_MAX_AGE_MS } from "../../src/core/data-limits-keeper";
import type { LimitsReport } from "../../src/core/engine-api";
import { createHarness, type Harness } from "./support/engine-harness";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

const CODE = "1-1-1";

async function workbook(remaining: number): Promise<Harness> {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: CODE }));
  service.limits.set("energy_price", { Germany: { remaining, total: 500 } });
  const h = createHarness({ service });
  await h.engine.getSeries(await h.engine.resolve(CODE, null, null));
  // The fake service does not count its answers: the first reading after this one is its own.
  h.clock.now += LIMITS_MAX_AGE_MS;
  return h;
}

function germany(report: LimitsReport): number | undefined {
  return report.rows.find((row) => row.product === "energy_price" && row.dataset === "Germany")?.remaining;
}

function limitsCalls(h: Harness): number {
  return h.service.calls.filter((call) => call.operation === "data_limits").length;
}

/** The service publishes a month: the series moves on, the allowances start again (4 used since). */
function publish(h: Harness): void {
  h.service.updateSeries(CODE, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
  h.service.limits.set("energy_price", { Germany: { remaining: 496, total: 500 } });
}

describe("after a release, Usage and the cost preview show the service's allowances", () => {
  test.each<[string, (h: Harness) => Promise<void>]>([
    [
      "a release off the calendar, seen when the catalog is read again",
      async (h) => {
        // The user opens the cost preview: it reads the catalog again now.
        await h.engine.planRefresh({ recheck: true });
      },
    ],
    [
      "the calendar's release start passed",
      async (h) => {
        h.schedule.releaseStart = h.clock.now;
      },
    ],
  ])("%s", async (_case, learn) => {
    const h = await workbook(490);
    expect(germany(await h.engine.limitsReport())).toBe(490);
    h.clock.now += 60_000;
    publish(h);
    await learn(h);
    h.clock.now += 60_000;
    // A minute after the last reading: it is last month's, so it is not reused.
    expect(germany(await h.engine.limitsReport())).toBe(496);
    const plan = await h.engine.planRefresh();
    expect(plan.cost).toEqual([{ product: "energy_price", dataset: "Germany", requests: 1, remaining: 496 }]);
  });
});

describe("Reload", () => {
  test("reads Data Limits again however recent the last reading", async () => {
    const h = await workbook(490);
    expect(germany(await h.engine.limitsReport())).toBe(490);
    h.service.limits.set("energy_price", { Germany: { remaining: 480, total: 500 } });
    h.clock.now += 60_000;
    const before = limitsCalls(h);
    // Not asked: the minute-old reading is reused (it is current).
    expect(germany(await h.engine.limitsReport())).toBe(490);
    expect(limitsCalls(h)).toBe(before);
    const reloaded = await h.engine.limitsReport({ reread: true });
    expect(germany(reloaded)).toBe(480);
    expect(limitsCalls(h)).toBeGreaterThan(before);
    expect(reloaded.notReread).toBeUndefined();
  });

  test("in a maintenance, makes no call and says why the numbers are the last reading's", async () => {
    const h = await workbook(490);
    await h.engine.limitsReport();
    const readAt = h.clock.now;
    h.clock.now += 60_000;
    h.schedule.down = { reason: "maintenance", until: h.clock.now + 3_600_000 };
    const before = limitsCalls(h);
    const reloaded = await h.engine.limitsReport({ reread: true });
    expect(limitsCalls(h)).toBe(before);
    expect(germany(reloaded)).toBe(490);
    expect(reloaded.notReread).toContainEqual({
      product: "energy_price",
      message: expect.stringMatching(/down for maintenance/),
      readAt,
    });
  });
});

test("after a refresh, Usage equals the service's Data Limits (the service counted more than PCD sent)", async () => {
  const h = await workbook(490);
  h.clock.now += 60_000;
  h.schedule.releaseStart = h.clock.now;
  h.clock.now += 60_000;
  h.service.updateSeries(CODE, { lastAvailableFinal: "2026-11", updatedAt: "2026-12-03" });
  h.service.limits.set("energy_price", { Germany: { remaining: 496, total: 500 } });
  // The refresh's data call is charged, and another workbook of the subscription spent 5
  // meanwhile: the service then says 490, where PCD's own count would say 495.
  h.service.failWith((call) => {
    if (call.operation === "series_values" || call.operation === "series_hist")
      h.service.limits.set("energy_price", { Germany: { remaining: 490, total: 500 } });
    return undefined;
  });
  const summary = await h.engine.refreshAll();
  expect(summary.requestsUsed).toBe(1);
  expect(germany(await h.engine.limitsReport())).toBe(490);
});

test("a revision between releases (updated_at alone moved) is no release: the reading is reused", async () => {
  const h = await workbook(490);
  expect(germany(await h.engine.limitsReport())).toBe(490);
  const calls = limitsCalls(h);
  h.clock.now += 60_000;
  h.service.updateSeries(CODE, { updatedAt: "2026-11-20", seriesHistChanged: true });
  await h.engine.planRefresh({ recheck: true });
  h.clock.now += 60_000;
  expect(germany(await h.engine.limitsReport())).toBe(490);
  expect(limitsCalls(h)).toBe(calls);
});
