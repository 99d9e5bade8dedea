// The runner's pass semantics on the real engine over an in-memory service (the emulator
// tests cover the whole stack over HTTP).
import { runWorkbook, type RunReport } from "../../src/headless";
import { RecordingInvocation } from "../../src/headless/invocation";
import { getEngine } from "../../src/host/shared-engine";
import { observeUse, realEngine, type RealEngine, type SeriesSetup } from "../functions/support/real-engine";
import { HeldTimers } from "../support/held-timers";
import { until } from "../support/until";

const GAS: SeriesSetup = {
  info: { code: "68520-8-1" },
  finals: { "2026-08": 10, "2026-09": 11, "2026-10": 12 },
};
const quiet = (): void => undefined;

/** The real engine as the runner meets it: change events come by themselves. */
const engineWith = (...series: SeriesSetup[]): RealEngine =>
  realEngine(series, {}, { deliverEvents: "by itself" });

test("every formula gets its latest result; unreadable lines become errors for that line", async () => {
  const { engine } = engineWith(GAS);
  const report = await runWorkbook({
    engine,
    log: quiet,
    formulas: [
      '=PCD.VALUE("68520-8-1")',
      '=PCD.VALUE("68520-8-1", "2026-08")',
      "=PCD.VALUE(68520-8-1)",
      '=PCD.VALUE("1-2-3",,,,"extra")',
    ],
  });
  expect(report.settled).toBe(true);
  expect(report.passes).toHaveLength(1);
  expect(report.passes[0]?.results).toEqual([
    { formula: '=PCD.VALUE("68520-8-1")', value: 12 },
    { formula: '=PCD.VALUE("68520-8-1", "2026-08")', value: 10 },
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
  const { engine } = engineWith(GAS);
  const use = observeUse(engine);
  let peak = 0;
  const idle = engine.idle.bind(engine);
  engine.idle = async () => {
    peak = Math.max(peak, use.listenerCount());
    return idle();
  };
  const report = await runWorkbook({ engine, log: quiet, passes: 3, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes.map((pass) => pass.results)).toEqual(
    Array.from({ length: 3 }, () => [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }]),
  );
  expect(peak).toBe(2); // one cell's key watch and onAuthChange: never two passes at once
  expect(use.listenerCount()).toBe(0);
  expect(() => getEngine()).toThrow(/not initialised/);
});

test("a cell re-run by a data change before the pass ends reports its newest value", async () => {
  const h = engineWith(GAS);
  const { engine } = h;
  const idle = engine.idle.bind(engine);
  let changed = false;
  engine.idle = async () => {
    await idle();
    if (!changed) {
      // A revision found by a refresh while the pass waits for its cells.
      changed = true;
      h.revise("68520-8-1", "2026-10", 13);
      await engine.refreshAll();
    }
  };
  const report = await runWorkbook({ engine, log: quiet, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes[0]?.results).toEqual([{ formula: '=PCD.VALUE("68520-8-1")', value: 13 }]);
});

test("a pass whose cells settle with nothing more to come ends after one quiet time", async () => {
  const { engine } = engineWith(GAS);
  const idle = engine.idle.bind(engine);
  let idleCalls = 0;
  engine.idle = async () => {
    idleCalls += 1;
    return idle();
  };
  const report = await runWorkbook({ engine, log: quiet, passes: 2, formulas: ['=PCD.VALUE("68520-8-1")'] });
  expect(report.passes.map((pass) => pass.results)).toEqual([
    [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }],
    [{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }],
  ]);
  // One wait for the engine (then one quiet time) per pass: no result came after the cells settled.
  expect(idleCalls).toBe(2);
});

test("a pass that does not settle in time names the stuck formulas", async () => {
  // Another product: its held call does not hold the gas series' call.
  const h = engineWith(GAS, { ...GAS, info: { code: "1-1-1", product: "commodity_price" } });
  const { engine } = h;
  h.service.hold("1-1-1");
  const deadline = new HeldTimers();
  const results = jest.spyOn(RecordingInvocation.prototype, "setResult");
  let running: Promise<RunReport> | undefined;
  try {
    running = runWorkbook({
      engine,
      log: quiet,
      passes: 2,
      timeoutMs: 200,
      deadlineTimer: deadline,
      formulas: ['=PCD.VALUE("68520-8-1")', '=PCD.VALUE("1-1-1")'],
    });
    // The deadline passes once the gas cell has its value (the other cell's call is held).
    await until(
      () => results.mock.calls.length,
      (count) => count > 0,
      "the gas cell's result",
      {
        timeoutMs: 5_000,
      },
    );
    expect(deadline.pending.map((timer) => timer.ms)).toEqual([expect.any(Number)]);
    expect(deadline.pending[0]!.ms).toBeLessThanOrEqual(200);
    deadline.fire();
    const report = await running;
    expect(report.settled).toBe(false);
    expect(report.passes).toHaveLength(1);
    expect(report.passes[0]?.stuck).toEqual(['=PCD.VALUE("1-1-1")']);
    expect(report.passes[0]?.results).toEqual([
      { formula: '=PCD.VALUE("68520-8-1")', value: 12 },
      {
        formula: '=PCD.VALUE("1-1-1")',
        error: { type: "#BUSY!", message: "The formula had no result when the pass timed out." },
      },
    ]);
    expect(deadline.pending).toEqual([]);
  } finally {
    results.mockRestore();
    // Whatever failed above, the run ends and its held call goes on before the next test.
    while (deadline.pending.length > 0) deadline.fire();
    await running?.catch(() => undefined);
    h.service.release("1-1-1");
  }
  await engine.idle();
});

test("counts are per pass: the engine's counters before and after", async () => {
  const { engine } = engineWith(GAS);
  const report = await runWorkbook({ engine, log: quiet, passes: 2, formulas: ['=PCD.VALUE("68520-8-1")'] });
  // The second pass is served from the cache the first one filled.
  expect(report.passes.map((pass) => pass.dataRequests)).toEqual([1, 0]);
  // The first pass reads the three products' catalogs to find the code (and their limits
  // ahead), then one Series Values call; the second makes no data call.
  expect(report.passes[0]?.http).toEqual({
    access_token: 0,
    series_info: 3,
    series_values: 1,
    series_hist: 0,
    data_limits: 3,
  });
  expect(report.passes[1]?.http.series_values).toBe(0);
});

test("refresh runs before the passes and its summary is reported", async () => {
  const { engine } = engineWith(GAS);
  const order: string[] = [];
  const refreshAll = engine.refreshAll.bind(engine);
  engine.refreshAll = async (onProgress) => {
    order.push("refresh");
    return refreshAll(onProgress);
  };
  const getSeries = engine.getSeries.bind(engine);
  engine.getSeries = async (request, need) => {
    order.push("cell");
    return getSeries(request, need);
  };
  const report = await runWorkbook({
    engine,
    log: quiet,
    refresh: true,
    formulas: ['=PCD.VALUE("68520-8-1")'],
  });
  expect(order[0]).toBe("refresh");
  expect(order.slice(1)).toContain("cell");
  expect(order.slice(1)).not.toContain("refresh");
  // Nothing was cached before: the refresh had nothing to bring up to date.
  expect(report.refresh).toMatchObject({ updated: 0, failed: 0 });
});

test("a failed refresh is logged and the passes still run", async () => {
  const { engine } = engineWith(GAS);
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
  expect(report.refresh).toMatchObject({ error: "Not signed in", dataRequests: 0 });
  expect(report.refresh?.updated).toBeUndefined();
  expect(logs).toContain("error: Refresh all failed: Not signed in");
  expect(report.passes[0]?.results).toEqual([{ formula: '=PCD.VALUE("68520-8-1")', value: 12 }]);
});

test("with onPass each pass's results are handed over as it ends and not kept in the report", async () => {
  const { engine } = engineWith(GAS);
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
