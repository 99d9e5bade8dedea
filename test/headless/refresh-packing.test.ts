// Refresh-all packing through the real cells: a workbook of 37 codes of
// one product, some asked in two currencies, some as tables from an old start date
// (History and Series Values) and the rest as latest values. After a release, refresh-all
// (run by the engine as the task pane runs it, with the cells live) and the recalculation
// after it (every formula invoked again through the real custom functions) use together
// the lower bound of calls per operation that BENCHMARKS.md defines (bench/bounds.ts:
// max(ceil(requests / 40), most requests of one code) per product, data type and
// operation), and the recalculation finds everything the refresh fetched.
import "fake-indexeddb/auto";
import { minimumCalls } from "../../bench/bounds";
import type { RefreshPlan } from "../../src/core/engine-api";
import type { SeriesInfo } from "../../src/core/model";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { runPass, type PassCells } from "../../src/headless/run-pass";
import { setEngine } from "../../src/host/shared-engine";
import { startPair, type Pair } from "../core/support/emulator-pair";

/** Friday 20 Nov 2026, 12:00 US Central: no maintenance, no release day. */
const START = "2026-11-20T18:00:00Z";
const PASS_TIMEOUT_MS = 60_000;

/** The workbook: every code in its default currency; every 4th also in another currency. */
function workbookOf(series: readonly SeriesInfo[]): string[] {
  const formulas: string[] = [];
  series.forEach((info, i) => {
    const other = info.availableCurrencies.find((name) => name !== info.defaultCurrency);
    // Tables from an old start read History and the window; the others only the latest month.
    formulas.push(i % 3 === 0 ? `=PCD.VALUES("${info.code}",,,"2020-01")` : `=PCD.VALUE("${info.code}")`);
    if (i % 4 === 0) {
      formulas.push(
        i % 8 === 0
          ? `=PCD.VALUES("${info.code}","${other}",,"2021-01")`
          : `=PCD.VALUE("${info.code}",,"${other}")`,
      );
    }
    // The default currency spelled out is the same request as leaving it out.
    if (i % 9 === 0 && info.defaultCurrency !== null)
      formulas.push(`=PCD.VALUE("${info.code}",,"${info.defaultCurrency.toLowerCase()}")`);
  });
  return formulas;
}

/** The bound of each data operation for what the refresh plan buys. */
function boundOf(plan: RefreshPlan): { series_values: number; series_hist: number } {
  const codesOf = (part: "values" | "history"): string[] =>
    plan.items.filter((item) => item.action.includes(part)).map((item) => item.code);
  return { series_values: minimumCalls(codesOf("values")), series_hist: minimumCalls(codesOf("history")) };
}

function cancel(cells: PassCells | undefined): void {
  for (const invocation of cells?.invocations ?? []) invocation.cancel();
}

let pair: Pair | undefined;
const live: PassCells[] = [];
beforeAll(() => installCustomFunctionsShim());
afterEach(async () => {
  for (const cells of live.splice(0)) cancel(cells);
  setEngine(undefined);
  await pair?.close();
  pair = undefined;
});

type Order = "refresh, then the recalculation" | "the recalculation while the refresh runs";

test.each<Order>(["refresh, then the recalculation", "the recalculation while the refresh runs"])(
  "37 codes, some in two currencies: %s stays at the lower bound of calls",
  async (order) => {
    pair = await startPair(START);
    const { engine } = pair;
    setEngine(engine);
    const series = (await engine.catalog("energy_price"))
      .filter((info) => info.lag === 0 && info.availableCurrencies.length > 1)
      .slice(0, 37);
    expect(series.length).toBe(37);
    const formulas = workbookOf(series);

    // The workbook as the user left it last month: every cell evaluated and still live.
    const cold = await runPass(engine, formulas, PASS_TIMEOUT_MS);
    live.push(cold.cells);
    expect(cold.report.results.filter((result) => "error" in result)).toEqual([]);

    // A release that also revises the history of codes asked in two currencies.
    const revised = [series[0], series[8], series[3]].map((info) => info?.code);
    await pair.admin("release", { revise: revised });
    await pair.setClock(new Date(pair.now() + 10 * 60_000).toISOString());
    // The release is off the calendar: the preview the Usage tab opens reads the catalogs.
    const plan = await engine.planRefresh({ recheck: true });
    const bound = boundOf(plan);
    // The workbook's shape: 37 codes, a code at most twice, so two Series Values calls suffice.
    expect(new Set(plan.items.map((item) => item.code)).size).toBe(37);
    expect(plan.items.length).toBeGreaterThan(40);
    expect(bound).toEqual({ series_values: 2, series_hist: 2 });

    await pair.admin("reset");
    // Excel cancels a recalculated cell's previous invocation before the new one runs.
    const recalculate = async (): Promise<PassCells> => {
      cancel(live.pop());
      const pass = await runPass(engine, formulas, PASS_TIMEOUT_MS);
      live.push(pass.cells);
      expect(pass.report.results.filter((result) => "error" in result)).toEqual([]);
      return pass.cells;
    };
    if (order === "refresh, then the recalculation") {
      const summary = await engine.refreshAll();
      expect(summary).toMatchObject({ failed: 0, requestsUsed: plan.totalRequests });
      const refreshed = await pair.stats();
      await recalculate();
      const after = await pair.stats();
      // The recalculation finds all the refresh fetched: no data call of its own.
      expect(after.calls).toEqual(refreshed.calls);
    } else {
      const refreshing = engine.refreshAll();
      await recalculate();
      expect(await refreshing).toMatchObject({ failed: 0 });
    }
    const { calls, dataRequests } = await pair.stats();
    expect({ series_values: calls.series_values, series_hist: calls.series_hist }).toEqual(bound);
    expect(Object.values(dataRequests).reduce((total, n) => total + n, 0)).toBe(plan.totalRequests);
  },
  120_000,
);
