// The synchronous fast path of a streaming cell (CellJob.computeNow).
import { PcdError } from "../../src/core/errors";
import type { CellError } from "../../src/functions/cell-errors";
import { startStreamingCell, type CellJob } from "../../src/functions/streaming-cell";
import { engineEvents, observeUse, type EngineEvents } from "./support/real-engine";

const asError = (error: CellError) => ({ error });

function makeSink(): { results: unknown[]; setResult(value: unknown): void; onCanceled?: () => void } {
  const results: unknown[] = [];
  return { results, setResult: (value) => results.push(value) };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A job whose fast path answers `now()` (undefined: not now; a throw: a failure) and whose slow path counts its runs. */
function fastJob(key: string, now: () => unknown) {
  const counts = { now: 0, slow: 0 };
  const job: CellJob<unknown> = {
    watch: "data",
    computeNow: (track) => {
      counts.now += 1;
      const value = now();
      if (value !== undefined) track(key);
      return value;
    },
    compute: async (run) => {
      counts.slow += 1;
      run.track(key);
      return "slow";
    },
  };
  return { job, counts };
}

describe("a cell's fast path", () => {
  afterEach(() => jest.useRealTimers());

  test("shows the result during the call, with no timer (no watchdog) and no slow run", async () => {
    const events = await engineEvents(["a"]);
    const { engine } = events.h;
    const use = observeUse(engine);
    jest.useFakeTimers();
    const sink = makeSink();
    const { job, counts } = fastJob(events.key("a"), () => 42);
    const cell = startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: () => engine.now(),
      watchdogMs: 1000,
    });
    expect(sink.results).toEqual([42]);
    expect(jest.getTimerCount()).toBe(0);
    expect(counts).toEqual({ now: 1, slow: 0 });
    // The key is held (refresh-all) and watched like a slow run's.
    expect(use.held.get(events.key("a"))).toBe(1);
    cell.cancel();
    expect(use.held.has(events.key("a"))).toBe(false);
  });
});

describe("a cell's fast path with real timers", () => {
  test.each([
    ["gives nothing", () => undefined],
    [
      "throws",
      () => {
        throw new Error("not now");
      },
    ],
  ])("falls back to the slow run when it %s", async (_case, now) => {
    const events: EngineEvents = await engineEvents(["a"]);
    const { engine } = events.h;
    const sink = makeSink();
    const { job, counts } = fastJob(events.key("a"), now);
    const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
    await flush();
    expect(sink.results).toEqual(["slow"]);
    expect(counts).toEqual({ now: 1, slow: 1 });
    cell.cancel();
  });

  test("a change of its key re-runs it through the fast path; an unchanged result is not set again", async () => {
    const events: EngineEvents = await engineEvents(["a"]);
    const { engine } = events.h;
    const use = observeUse(engine);
    const sink = makeSink();
    let value = 1;
    const { job, counts } = fastJob(events.key("a"), () => value);
    const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
    await events.change("a");
    await flush();
    expect(sink.results).toEqual([1]);
    value = 2;
    await events.change("a");
    await flush();
    expect(sink.results).toEqual([1, 2]);
    expect(counts.slow).toBe(0);
    expect(use.held.get(events.key("a"))).toBe(1);
    cell.cancel();
  });

  test("a slow run in progress is not overtaken by the fast path (the change waits for it)", async () => {
    const events: EngineEvents = await engineEvents(["a"]);
    const { engine } = events.h;
    const sink = makeSink();
    let ready = false;
    let finishSlow!: () => void;
    const slowHeld = new Promise<void>((resolve) => (finishSlow = resolve));
    const { job, counts } = fastJob(events.key("a"), () => (ready ? "fast" : undefined));
    job.compute = async (run) => {
      counts.slow += 1;
      run.track(events.key("a"));
      await slowHeld;
      return "slow";
    };
    const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
    ready = true;
    await events.change("a"); // during the slow run: marks it dirty
    await flush();
    expect(sink.results).toEqual([]);
    finishSlow();
    await flush();
    expect(counts.slow).toBe(1);
    expect(sink.results).toEqual(["slow", "fast"]);
    cell.cancel();
  });

  test("an error is worded by the slow run, and the fast path serves the cell once it can", async () => {
    const events: EngineEvents = await engineEvents(["a"]);
    const { engine } = events.h;
    const sink = makeSink();
    let state: "failing" | "ok" = "failing";
    // The fast path gives nothing while the slow run fails with an input error.
    const { job } = fastJob(events.key("a"), () => (state === "ok" ? "fast" : undefined));
    job.compute = async (run) => {
      run.track(events.key("a"));
      throw new PcdError("input", "The code is not a PCD code.");
    };
    const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
    await flush();
    expect(sink.results).toEqual([{ error: expect.objectContaining({ type: "#VALUE!" }) }]);
    state = "ok";
    await events.change("a");
    await flush();
    expect(sink.results[1]).toBe("fast");
    cell.cancel();
  });
});
