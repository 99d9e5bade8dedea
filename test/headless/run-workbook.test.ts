// The runner's pass semantics against the fake engine (the emulator tests cover the real one).
import { runWorkbook } from "../../src/headless";
import { getEngine } from "../../src/host/shared-engine";
import { FakeEngine, makeInfo, monthlyPoints } from "../support/fake-engine";

const GAS = { info: makeInfo({ code: "68520-8-1" }), finals: monthlyPoints("2024-01", 3, 10), forecasts: [] };
const quiet = (): void => undefined;

test("every formula gets its latest result; unreadable lines become errors for that line", async () => {
  const engine = new FakeEngine([GAS]);
  const report = await runWorkbook({
    engine,
    log: quiet,
    formulas: [
      '=PCD.VALUE("68520-8-1")',
      '=PCD.VALUE("68520-8-1", "2024-01")',
      "=PCD.VALUE(68520-8-1)",
      '=PCD.VALUE("1-2-3",,,,"extra")',
    ],
  });
  expect(report.settled).toBe(true);
  expect(report.passes).toHaveLength(1);
  expect(report.passes[0]?.results).toEqual([
    { formula: '=PCD.VALUE("68520-8-1")', value: 12 },
    { formula: '=PCD.VALUE("68520-8-1", "2024-01")', value: 10 },
    {
      formula: "=PCD.VALUE(68520-8-1)",
      error: { type: "#NAME?", message: 'Cannot parse formula at column 17: expected "," or ")".' },
    },
    {
      formula: '=PCD.VALUE("1-2-3",,,,"extra")',
      error: {
        type: "#NAME?",
        message: "PCD.VALUE takes at most 4 arguments (code, date, currency, unit); got 5.",
      },
    },
  ]);
});

test("each pass cancels the previous pass's cells, and the run leaves no cell subscribed", async () => {
  const engine = new FakeEngine([GAS]);
  let peak = 0;
  const idle = engine.idle.bind(engine);
  engine.idle = async () => {
    peak = Math.max(peak, engine.listenerCount);
    return idle();
  };
  const report = await runWorkbook({ engine, log: quiet, passes: 3, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes.map((pass) => pass.results)).toEqual(
    Array.from({ length: 3 }, () => [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }]),
  );
  expect(peak).toBe(2); // one cell's key watch and onAuthChange: never two passes at once
  expect(engine.listenerCount).toBe(0);
  expect(() => getEngine()).toThrow(/not initialised/);
});

test("a cell re-run by a data change before the pass ends reports its newest value", async () => {
  const series = { ...GAS, finals: [...GAS.finals] };
  const engine = new FakeEngine([series]);
  let changed = false;
  engine.idle = async () => {
    if (!changed) {
      changed = true;
      series.finals.push({ month: "2024-04", value: 13 });
      engine.emitChange(["live|energy_price|68520-8-1|default|default"]);
    }
  };
  const report = await runWorkbook({ engine, log: quiet, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes[0]?.results).toEqual([{ formula: '=PCD.VALUE("68520-8-1")', value: 13 }]);
});

test("a pass that does not settle in time names the stuck formulas", async () => {
  const engine = new FakeEngine([GAS, { ...GAS, info: makeInfo({ code: "1-1-1" }) }]);
  engine.hanging.add("1-1-1");
  const report = await runWorkbook({
    engine,
    log: quiet,
    passes: 2,
    timeoutMs: 200,
    formulas: ['=PCD.VALUE("68520-8-1")', '=PCD.VALUE("1-1-1")'],
  });
  expect(report.settled).toBe(false);
  expect(report.passes).toHaveLength(1);
  expect(report.passes[0]?.stuck).toEqual(['=PCD.VALUE("1-1-1")']);
  expect(report.passes[0]?.results[1]).toEqual({
    formula: '=PCD.VALUE("1-1-1")',
    error: { type: "#BUSY!", message: "The formula had no result when the pass timed out." },
  });
});

test("counts are per pass: the engine's counters before and after", async () => {
  const engine = new FakeEngine([GAS]);
  const report = await runWorkbook({ engine, log: quiet, passes: 2, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes.map((pass) => pass.dataRequests)).toEqual([1, 1]);
  expect(report.passes[0]?.http).toEqual({
    access_token: 0,
    series_info: 0,
    series_values: 1,
    series_hist: 0,
    data_limits: 0,
  });
});

test("refresh runs before the passes and its summary is reported", async () => {
  const engine = new FakeEngine([GAS]);
  const order: string[] = [];
  engine.refreshAll = async () => {
    order.push("refresh");
    return {
      updated: 1,
      revised: 0,
      unchanged: 0,
      failed: 0,
      requestsUsed: 1,
      failures: [],
      startedAt: 0,
      finishedAt: 1,
    };
  };
  const getSeries = engine.getSeries.bind(engine);
  engine.getSeries = async (request) => {
    order.push("cell");
    return getSeries(request);
  };
  const report = await runWorkbook({
    engine,
    log: quiet,
    refresh: true,
    formulas: ['=PCD.VALUE("68520-8-1")'],
  });
  expect(order).toEqual(["refresh", "cell"]);
  expect(report.refresh?.updated).toBe(1);
});

test("a failed refresh is logged and the passes still run", async () => {
  const engine = new FakeEngine([GAS]);
  engine.refreshAll = async () => {
    throw new Error("Not signed in");
  };
  const logs: string[] = [];
  const report = await runWorkbook({
    engine,
    log: (level, message) => logs.push(`${level}: ${message}`),
    refresh: true,
    formulas: ['=PCD.VALUE("68520-8-1")'],
  });
  expect(report.refresh).toBeUndefined();
  expect(logs).toContain("error: Refresh all failed: Not signed in");
  expect(report.passes[0]?.results).toEqual([{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }]);
});

test("with onPass each pass's results are handed over as it ends and not kept in the report", async () => {
  const engine = new FakeEngine([GAS]);
  const handed: Array<{ results: unknown[]; passesSoFar: number }> = [];
  const report = await runWorkbook({
    engine,
    log: quiet,
    passes: 2,
    formulas: ['=PCD.VALUE("68520-8-1")'],
    onPass: (pass, sofar) => handed.push({ results: pass.results, passesSoFar: sofar.passes.length }),
  });
  expect(handed).toEqual([
    { results: [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }], passesSoFar: 0 },
    { results: [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }], passesSoFar: 1 },
  ]);
  expect(report.passes.map((pass) => pass.results)).toEqual([[], []]);
  expect(report.passes.map((pass) => pass.dataRequests)).toHaveLength(2);
});
