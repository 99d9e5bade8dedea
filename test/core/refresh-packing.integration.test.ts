// Refresh-all on a workbook that asks series in several currencies, then the recalculation
// after it, against the emulator: together they use the lower bound of calls per product,
// data type and operation (BENCHMARKS.md: max(ceil(requests / 40), most requests of one
// code)), and the cells find everything the refresh fetched (no data call of their own).
import "fake-indexeddb/auto";
import type { RefreshPlan } from "../../src/core/engine-api";
import { startPair, sum, type Pair } from "./support/emulator-pair";

/** Friday 20 Nov 2026, 12:00 US Central: no maintenance, no release day. */
const START = "2026-11-20T18:00:00Z";

/** The bound of one group: 40 codes per call, never the same code twice in a call. */
function groupBound(codes: readonly string[]): number {
  if (codes.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return Math.max(Math.ceil(codes.length / 40), ...counts.values());
}

/** What the plan needs per operation (one product and data type in this workbook). */
function boundOf(plan: RefreshPlan): { series_values: number; series_hist: number } {
  const values = plan.items.filter((item) => item.action.includes("values")).map((item) => item.code);
  const history = plan.items.filter((item) => item.action.includes("history")).map((item) => item.code);
  return { series_values: groupBound(values), series_hist: groupBound(history) };
}

let pair: Pair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

test("refresh-all plus the recalculation after it stay at the lower bound with series in several currencies", async () => {
  pair = await startPair(START);
  const { engine } = pair;
  const series = (await engine.catalog("energy_price"))
    .filter((info) => info.lag === 0 && info.availableCurrencies.length > 2)
    .slice(0, 36);
  expect(series.length).toBe(36);
  const requests = await Promise.all(series.map((info) => engine.resolve(info.code, null, null)));
  // Two series asked in every other currency too: one code up to three times in a refresh.
  for (const info of series.slice(0, 2)) {
    for (const currency of info.availableCurrencies
      .filter((name) => name !== info.defaultCurrency)
      .slice(0, 2))
      requests.push(await engine.resolve(info.code, currency, null));
  }
  expect(new Set(requests.map((request) => request.key)).size).toBe(40);
  await Promise.all(requests.map((request) => engine.getSeries(request)));

  await pair.admin("release", {});
  await pair.setClock(new Date(pair.now() + 10 * 60_000).toISOString());
  // The release is off the calendar: the preview the Usage tab opens reads the catalogs.
  const plan = await engine.planRefresh({ recheck: true });
  expect(plan.items.filter((item) => item.action !== "none").length).toBeGreaterThan(30);
  await pair.admin("reset");
  const summary = await engine.refreshAll();
  expect(summary).toMatchObject({ failed: 0, requestsUsed: plan.totalRequests });
  const refreshed = await pair.stats();

  await pair.admin("reset");
  const cells = await Promise.all(requests.map((request) => engine.getSeries(request)));
  expect(cells.every((data) => data.staleBecause === undefined)).toBe(true);
  const recalculated = await pair.stats();

  const bound = boundOf(plan);
  expect(bound.series_values).toBe(3);
  expect({
    series_values: refreshed.calls.series_values + recalculated.calls.series_values,
    series_hist: refreshed.calls.series_hist + recalculated.calls.series_hist,
  }).toEqual(bound);
  expect(recalculated.calls.series_values + recalculated.calls.series_hist).toBe(0);
  expect(sum(refreshed.dataRequests) + sum(recalculated.dataRequests)).toBe(plan.totalRequests);
});
