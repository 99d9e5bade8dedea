import { PcdError } from "../../src/core/errors";
import type { CellError } from "../../src/functions/cell-errors";
import {
  defaultWatchdogMs,
  startStreamingCell,
  type CellJob,
  type CellWatch,
} from "../../src/functions/streaming-cell";
import type { EngineCore } from "../../src/core/engine-core";
import { engineEvents, observeUse, realEngine } from "./support/real-engine";

// The cells run on the real engine (over an in-memory service); its events are made through
// its public calls (test/functions/support/real-engine.ts). Jobs are scripted, so each test
// drives exactly one part of the cell's life.

/** A real engine no test event reaches, and the request key of its one series: for tests of a cell's timers. */
async function quiet(): Promise<{ engine: EngineCore; key: string }> {
  const h = realEngine([{ info: { code: "1-1-1" }, finals: { "2026-10": 1 } }]);
  return { engine: h.engine, key: (await h.request("1-1-1")).key };
}

interface Sink {
  results: unknown[];
  setResult(value: unknown): void;
  onCanceled?: () => void;
}

function makeSink(): Sink {
  const results: unknown[] = [];
  return { results, setResult: (value) => results.push(value) };
}

const asError = (error: CellError) => ({ error });

/** A job whose runs the test drives: each run takes the next scripted outcome. */
function scriptedJob(watch: CellWatch, outcomes: Array<() => Promise<unknown>>, key?: string) {
  let runs = 0;
  const job: CellJob<unknown> = {
    watch,
    compute: async (run) => {
      if (key) run.track(key);
      const outcome = outcomes[Math.min(runs, outcomes.length - 1)];
      runs += 1;
      if (!outcome) throw new Error("no outcome scripted");
      return outcome();
    },
  };
  return { job, runs: () => runs };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

test("a data cell shows its result and re-runs only when its key changes", async () => {
  const events = await engineEvents(["a", "b"]);
  const { engine } = events.h;
  const sink = makeSink();
  const { job, runs } = scriptedJob("data", [async () => 1, async () => 2], events.key("a"));
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  expect(sink.results).toEqual([1]);

  await events.change("b");
  await events.meta();
  await flush();
  expect(runs()).toBe(1);

  await events.change("b", "a");
  await flush();
  expect(runs()).toBe(2);
  expect(sink.results).toEqual([1, 2]);
});

test("an unchanged result is not set again (no needless recalculation)", async () => {
  const events = await engineEvents(["k"]);
  const { engine } = events.h;
  const sink = makeSink();
  const { job, runs } = scriptedJob("data", [async () => [[1, "a"]]], events.key("k"));
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.change("k");
  await flush();
  expect(runs()).toBe(2);
  expect(sink.results).toEqual([[[1, "a"]]]);
});

test("a meta cell re-runs on catalog or limits changes", async () => {
  const events = await engineEvents();
  const { engine } = events.h;
  const sink = makeSink();
  const { job } = scriptedJob("meta", [async () => "a", async () => "b"]);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.meta();
  await flush();
  expect(sink.results).toEqual(["a", "b"]);
});

test("a failed cell re-runs after a sign-in, not on other auth changes", async () => {
  const h = realEngine([{ info: { code: "1-1-1" }, finals: { "2026-10": 1 } }]);
  const { engine } = h;
  const { key } = await h.request("1-1-1");
  h.auth.signOut();
  const sink = makeSink();
  const notSignedIn = new PcdError("not_signed_in", "Not signed in to PCD.");
  const { job, runs } = scriptedJob("data", [() => Promise.reject(notSignedIn), async () => 42], key);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  expect(sink.results).toEqual([{ error: { type: "#N/A", message: "Not signed in to PCD." } }]);

  h.auth.notify({ signedIn: false, tokenExpiresAt: 5 });
  await flush();
  expect(runs()).toBe(1);

  await engine.signIn("a@example.com", "password");
  await flush();
  expect(sink.results.at(-1)).toBe(42);
});

test("a keyless failure (e.g. unknown code) re-runs when the catalog changes", async () => {
  const events = await engineEvents();
  const { engine } = events.h;
  const sink = makeSink();
  const unknown = new PcdError("not_found", "Unknown code 1-2-3.");
  const { job } = scriptedJob("data", [() => Promise.reject(unknown), async () => 7]);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.meta();
  await flush();
  expect(sink.results).toEqual([{ error: { type: "#N/A", message: "Unknown code 1-2-3." } }, 7]);
});

test("an argument error stops watching: nothing can fix it but new arguments", async () => {
  const events = await engineEvents();
  const { engine } = events.h;
  const use = observeUse(engine);
  const sink = makeSink();
  const bad = new PcdError("input", "order must be 0 or 1; got 3.");
  const { job, runs } = scriptedJob("meta", [() => Promise.reject(bad)]);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  expect(sink.results).toEqual([{ error: { type: "#VALUE!", message: "order must be 0 or 1; got 3." } }]);
  expect(use.listenerCount()).toBe(0);
  await events.meta();
  await flush();
  expect(runs()).toBe(1);
});

test("triggers during a computation coalesce into one more run", async () => {
  const events = await engineEvents();
  const { engine } = events.h;
  const sink = makeSink();
  let release: (value: number) => void = () => undefined;
  const { job, runs } = scriptedJob("meta", [
    () => new Promise<number>((resolve) => (release = resolve)),
    async () => 2,
  ]);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await events.meta();
  await events.meta();
  await events.meta();
  release(1);
  await flush();
  expect(runs()).toBe(2);
  expect(sink.results).toEqual([1, 2]);
});

test("cancelling unsubscribes and ignores a late result", async () => {
  const { engine, key } = await quiet();
  const use = observeUse(engine);
  const sink = makeSink();
  let release: (value: number) => void = () => undefined;
  const { job } = scriptedJob("data", [() => new Promise<number>((resolve) => (release = resolve))], key);
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  // Its key and sign-ins (a data cell with a key does not listen to catalog changes).
  expect(use.listenerCount()).toBe(2);
  sink.onCanceled?.();
  expect(use.listenerCount()).toBe(0);
  release(1);
  await flush();
  expect(sink.results).toEqual([]);
});

test("a data cell listens to exactly the keys of its latest run", async () => {
  const events = await engineEvents(["old", "new", "newest"]);
  const { engine } = events.h;
  const use = observeUse(engine);
  const sink = makeSink();
  let name = "old";
  const job: CellJob<string> = {
    watch: "data",
    compute: async (run) => {
      run.track(events.key(name));
      return name;
    },
  };
  const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  expect(use.watchedKeys()).toEqual([events.key("old")]);
  name = "new";
  cell.rerun();
  await flush();
  expect(use.watchedKeys()).toEqual([events.key("new")]);
  await events.change("old");
  await flush();
  expect(sink.results).toEqual(["old", "new"]);
  name = "newest";
  await events.change("new");
  await flush();
  expect(sink.results).toEqual(["old", "new", "newest"]);
});

test("many keys changing in one delivery re-run a cell once", async () => {
  const events = await engineEvents(["a", "b"]);
  const { engine } = events.h;
  const sink = makeSink();
  let runs = 0;
  const job: CellJob<number> = {
    watch: "data",
    compute: async (run) => {
      run.track(events.key("a"));
      run.track(events.key("b"));
      runs += 1;
      return runs;
    },
  };
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.change("a", "b");
  await flush();
  expect(runs).toBe(2);
});

const succeeds = async (): Promise<unknown> => 1;
const fails = async (): Promise<unknown> => Promise.reject(new Error("x"));

test.each<[string, CellWatch, string | undefined, () => Promise<unknown>, number]>([
  ["a data cell with a key", "data", "k", succeeds, 1],
  ["a data cell that failed with its key known", "data", "k", fails, 1],
  ["a data cell that failed before knowing its key", "data", undefined, fails, 2],
  ["a meta cell", "meta", undefined, succeeds, 2],
  ["a catalog cell", "catalog", undefined, succeeds, 2],
])("catalog changes and %s", async (_name, watch, key, outcome, expectedRuns) => {
  const events = await engineEvents(["k"]);
  const { engine } = events.h;
  const { job, runs } = scriptedJob(watch, [outcome], key === undefined ? undefined : events.key(key));
  const cell = startStreamingCell(makeSink(), job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.meta();
  await flush();
  expect(runs()).toBe(expectedRuns);
  cell.cancel();
});

test.each<[CellWatch, number]>([
  ["meta", 2],
  ["catalog", 1],
  ["data", 1],
])("a change of the allowances alone re-runs a %s cell: runs %i", async (watch, expectedRuns) => {
  const events = await engineEvents();
  const { engine } = events.h;
  const { job, runs } = scriptedJob(watch, [succeeds]);
  const cell = startStreamingCell(makeSink(), job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.limits();
  await flush();
  expect(runs()).toBe(expectedRuns);
  cell.cancel();
});

/** Settles pending promise chains without running timers (fake timers are on). */
async function microflush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

describe("watchdog", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("a first result that never comes becomes #N/A naming the wait, and a late result still lands", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    let release: (value: number) => void = () => undefined;
    const { job } = scriptedJob("data", [() => new Promise<number>((resolve) => (release = resolve))], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: () => engine.now(),
      watchdogMs: 60_000,
    });
    jest.advanceTimersByTime(59_999);
    expect(sink.results).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sink.results).toEqual([
      {
        error: {
          type: "#N/A",
          message:
            "PCD timed out waiting for the service (no answer within 60 s); the cell updates when the data arrives.",
        },
      },
    ]);
    release(5);
    await microflush();
    expect(sink.results.at(-1)).toBe(5);
  });

  test("a re-run that hangs keeps the data already shown", async () => {
    const h = realEngine([]);
    const { engine } = h;
    const sink = makeSink();
    const { job } = scriptedJob("meta", [async () => "shown", () => new Promise<never>(() => undefined)]);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: () => engine.now(),
      watchdogMs: 1_000,
    });
    await microflush();
    // A sign-in is a meta change the engine delivers without a timer.
    await engine.signIn("a@example.com", "password");
    h.tick();
    await microflush();
    jest.advanceTimersByTime(10_000);
    await microflush();
    expect(sink.results).toEqual(["shown"]);
  });

  test("the default allows the engine's call timeouts plus a margin", () => {
    const { engine } = realEngine([]);
    const { callTimeoutMs, historyTimeoutMs } = engine.getSettings();
    expect(defaultWatchdogMs(engine)).toBeGreaterThan(2 * callTimeoutMs + historyTimeoutMs);
  });
});

test("cancelling a cell that is still waiting clears its watchdog (no timer outlives the cell)", async () => {
  jest.useFakeTimers();
  try {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job } = scriptedJob("data", [() => new Promise<never>(() => undefined)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: () => engine.now(),
      watchdogMs: 5_000,
    });
    expect(jest.getTimerCount()).toBe(1);
    sink.onCanceled?.();
    expect(jest.getTimerCount()).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});

test("a cell follows only the keys its latest run used", async () => {
  const events = await engineEvents(["first", "second"]);
  const { engine } = events.h;
  const sink = makeSink();
  let runs = 0;
  const job: CellJob<unknown> = {
    watch: "data",
    compute: async (run) => {
      runs += 1;
      run.track(events.key(runs === 1 ? "first" : "second"));
      return runs;
    },
  };
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.change("first");
  await flush();
  expect(sink.results).toEqual([1, 2]);
  await events.change("first");
  await flush();
  expect(sink.results).toEqual([1, 2]);
  await events.change("second");
  await flush();
  expect(sink.results).toEqual([1, 2, 3]);
});

test("a change of the key while the cell is computing re-runs it once the run ends", async () => {
  const events = await engineEvents(["k"]);
  const { engine } = events.h;
  const sink = makeSink();
  let release: (value: string) => void = () => undefined;
  const { job, runs } = scriptedJob(
    "data",
    [() => new Promise<string>((resolve) => (release = resolve)), async () => "new"],
    events.key("k"),
  );
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  await events.change("k");
  release("old");
  await flush();
  expect(runs()).toBe(2);
  expect(sink.results).toEqual(["old", "new"]);
});

describe("retries after passing failures", () => {
  /** Jest's fake clock, which the timers advance: the cells' retry clock in these tests. */
  const fakeNow = (): number => Date.now();
  beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-15T12:00:00Z") }));
  afterEach(() => jest.useRealTimers());

  const networkDown = new PcdError("network", "PCD could not be reached.");

  test("a network failure retries after 1, 5 and 15 minutes, then waits for a change", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job, runs } = scriptedJob("data", [() => Promise.reject(networkDown)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    const runsAfter = async (ms: number): Promise<number> => {
      jest.advanceTimersByTime(ms);
      await microflush();
      return runs();
    };
    expect(runs()).toBe(1);
    expect(await runsAfter(59_999)).toBe(1);
    expect(await runsAfter(1)).toBe(2);
    expect(await runsAfter(5 * 60_000)).toBe(3);
    expect(await runsAfter(15 * 60_000)).toBe(4);
    expect(await runsAfter(24 * 60 * 60_000)).toBe(4);
    expect(jest.getTimerCount()).toBe(0); // the retry chain ended
  });

  test("downtime retries a minute after the service says it is back, and success resets", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const until = Date.now() + 3 * 60 * 60_000;
    const down = new PcdError("unavailable", "Down for maintenance until 22:00.", { until });
    const { job, runs } = scriptedJob("data", [() => Promise.reject(down), async () => 5], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    jest.advanceTimersByTime(3 * 60 * 60_000 + 59_000);
    await microflush();
    expect(runs()).toBe(1);
    jest.advanceTimersByTime(1_000);
    await microflush();
    expect(runs()).toBe(2);
    expect(sink.results.at(-1)).toBe(5);
  });

  /** The engine's "the service answers again" event, fired by the test. */
  function serviceBack(engine: EngineCore): { fire(): void; listeners(): number } {
    const listeners = new Set<() => void>();
    jest.spyOn(engine, "onServiceBack").mockImplementation((listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    });
    return { fire: () => [...listeners].forEach((listener) => listener()), listeners: () => listeners.size };
  }

  test("a cell waiting on a retry tries at once when the service answers again", async () => {
    const { engine, key } = await quiet();
    const back = serviceBack(engine);
    const sink = makeSink();
    const { job, runs } = scriptedJob("data", [() => Promise.reject(networkDown), async () => 8], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    expect(sink.results.at(-1)).toMatchObject({ error: { message: expect.stringContaining("12:01 UTC") } });
    jest.advanceTimersByTime(10_000);
    back.fire();
    await microflush();
    expect(runs()).toBe(2);
    expect(sink.results.at(-1)).toBe(8);
    // Nothing waits any more: neither the timer nor the engine's event.
    expect(back.listeners()).toBe(0);
    jest.advanceTimersByTime(24 * 60 * 60_000);
    await microflush();
    expect(runs()).toBe(2);
  });

  test("early retries still back off: a cell that keeps failing is woken at most once per scheduled step", async () => {
    const { engine, key } = await quiet();
    const back = serviceBack(engine);
    const sink = makeSink();
    const { job, runs } = scriptedJob("data", [() => Promise.reject(networkDown)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    const messages: unknown[] = [];
    for (let i = 0; i < 6; i += 1) {
      back.fire();
      await microflush();
      messages.push(sink.results.at(-1));
    }
    // The first failure, then one early retry per step of the schedule (1, 5, 15 minutes).
    expect(runs()).toBe(4);
    expect(messages.at(-1)).toEqual({ error: { type: "#N/A", message: "PCD could not be reached." } });
    // The schedule ran out: a return still brings one try, but at most one per 15 minutes,
    // however often the service comes and goes.
    jest.advanceTimersByTime(15 * 60_000);
    await microflush();
    expect(runs()).toBe(5);
    for (let i = 0; i < 10; i += 1) {
      back.fire();
      jest.advanceTimersByTime(60_000);
      await microflush();
    }
    expect(runs()).toBe(5);
    jest.advanceTimersByTime(5 * 60_000);
    await microflush();
    expect(runs()).toBe(6);
  });

  test("a cell whose retries ran out tries again when the service answers again, with no user action", async () => {
    const { engine, key } = await quiet();
    const back = serviceBack(engine);
    const sink = makeSink();
    const { job, runs } = scriptedJob(
      "data",
      [
        () => Promise.reject(networkDown),
        () => Promise.reject(networkDown),
        () => Promise.reject(networkDown),
        () => Promise.reject(networkDown),
        async () => 9,
      ],
      key,
    );
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    // The schedule: 1, 5 and 15 minutes, then no timer.
    for (const step of [60_000, 5 * 60_000, 15 * 60_000]) {
      jest.advanceTimersByTime(step);
      await microflush();
    }
    expect(runs()).toBe(4);
    jest.advanceTimersByTime(24 * 60 * 60_000);
    await microflush();
    expect(runs()).toBe(4);
    // The next day the service answers again: the cell gets its value by itself.
    back.fire();
    await microflush();
    expect(runs()).toBe(5);
    expect(sink.results.at(-1)).toBe(9);
    expect(back.listeners()).toBe(0);
  });

  test("a downtime that ends in hours sends its cells back within minutes of its end, jitter included", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const until = Date.now() + 16 * 60 * 60_000;
    const down = new PcdError("unavailable", "Down for maintenance until 22:00.", { until });
    const { job, runs } = scriptedJob("data", [() => Promise.reject(down), async () => 5], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0.999,
    });
    await microflush();
    jest.advanceTimersByTime(until - Date.now() + 60_000 + 15 * 60_000 * 0.25);
    await microflush();
    expect(runs()).toBe(2);
  });

  test("the retry time comes from the injected clock", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job } = scriptedJob("data", [() => Promise.reject(networkDown)], key);
    const clock = Date.parse("2026-11-15T08:30:00Z");
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      watchdogMs: 10_000_000,
      random: () => 0,
      now: () => clock,
    });
    await microflush();
    expect(sink.results.at(-1)).toEqual({
      error: { type: "#N/A", message: "PCD could not be reached. Will try again at 08:31 UTC." },
    });
  });

  test("the message says when the cell tries again, once, whatever the engine retried", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job } = scriptedJob("data", [() => Promise.reject(networkDown)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    // 12:00 UTC now (no jitter drawn): the first retry is a minute later, the next five minutes after that.
    expect(sink.results.at(-1)).toEqual({
      error: { type: "#N/A", message: "PCD could not be reached. Will try again at 12:01 UTC." },
    });
    jest.advanceTimersByTime(60_000);
    await microflush();
    expect(sink.results.at(-1)).toEqual({
      error: { type: "#N/A", message: "PCD could not be reached. Will try again at 12:06 UTC." },
    });
  });

  // Cells refused together (a 429 for a whole recalculation) must not come back in step.
  test.each([
    [0, 60_000],
    [0.5, 67_500],
    [0.999, 74_985],
  ])("with random() = %p a retry waits %p ms (up to 25 %% more than the schedule)", async (draw, wait) => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const refused = new PcdError("rate", "Too many requests.", { retryAfterMs: 1_000 });
    const { job, runs } = scriptedJob("data", [() => Promise.reject(refused)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => draw,
    });
    await microflush();
    jest.advanceTimersByTime(wait - 1);
    await microflush();
    expect(runs()).toBe(1);
    jest.advanceTimersByTime(1);
    await microflush();
    expect(runs()).toBe(2);
  });

  test("an unreadable answer is retried on the schedule, not at once", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const unreadable = new PcdError("protocol", "The answer of Series Values could not be read.");
    const { job, runs } = scriptedJob("data", [() => Promise.reject(unreadable), async () => 7], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    jest.advanceTimersByTime(59_999);
    await microflush();
    expect(runs()).toBe(1);
    jest.advanceTimersByTime(1);
    await microflush();
    expect(sink.results.at(-1)).toBe(7);
  });

  test("cached data shown after a failed fetch keeps showing and is retried on the schedule", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    let runs = 0;
    const job: CellJob<number> = {
      watch: "data",
      compute: async (run) => {
        run.track(key);
        runs += 1;
        // The first two runs get the cached value, stale; the third is brought up to date.
        if (runs <= 2) run.stale(new PcdError("server", "HTTP 503 from Series Values."));
        return runs <= 2 ? 1 : 2;
      },
    };
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    expect(sink.results).toEqual([1]);
    jest.advanceTimersByTime(60_000);
    await microflush();
    expect(runs).toBe(2);
    jest.advanceTimersByTime(5 * 60_000);
    await microflush();
    expect(runs).toBe(3);
    expect(sink.results).toEqual([1, 2]);
    // Up to date: no more timed retries.
    jest.advanceTimersByTime(24 * 60 * 60_000);
    await microflush();
    expect(runs).toBe(3);
  });

  test.each([
    new PcdError("input", "bad argument"),
    new PcdError("not_found", "Unknown code"),
    new PcdError("quota", "Monthly allowance used up"),
    new Error("bug"),
  ])("no timed retry for %p", async (failure) => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job, runs } = scriptedJob("data", [() => Promise.reject(failure)], key);
    startStreamingCell(sink, job, { engine, toHostError: asError, now: fakeNow, watchdogMs: 10_000_000 });
    await microflush();
    jest.advanceTimersByTime(24 * 60 * 60_000);
    await microflush();
    expect(runs()).toBe(1);
  });

  test("cancelling stops a pending retry", async () => {
    const { engine, key } = await quiet();
    const sink = makeSink();
    const { job, runs } = scriptedJob("data", [() => Promise.reject(networkDown)], key);
    startStreamingCell(sink, job, {
      engine,
      toHostError: asError,
      now: fakeNow,
      watchdogMs: 10_000_000,
      random: () => 0,
    });
    await microflush();
    // The retry is pending (beside it the engine may hold its own timers: the key list's save).
    expect(jest.getTimerCount()).toBeGreaterThan(0);
    sink.onCanceled?.();
    jest.advanceTimersByTime(24 * 60 * 60_000);
    await microflush();
    expect(runs()).toBe(1);
    // Nothing came back: the engine's own grace for the released key ran out, no retry was left.
    expect(jest.getTimerCount()).toBe(0);
  });
});

test("a cell holds the key it shows while it lives and lets it go when cancelled", async () => {
  const events = await engineEvents(["a"]);
  const { engine } = events.h;
  const use = observeUse(engine);
  const sink = makeSink();
  const { job } = scriptedJob("data", [async () => 1], events.key("a"));
  const cell = startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  expect(use.held.get(events.key("a"))).toBe(1);

  await events.change("a"); // a re-run of the same formula keeps one hold, not two
  await flush();
  expect(use.held.get(events.key("a"))).toBe(1);

  cell.cancel();
  expect(use.held.has(events.key("a"))).toBe(false);
});

test("a cell whose run now asks for another key releases the old one", async () => {
  const events = await engineEvents(["a", "b"]);
  const { engine } = events.h;
  const use = observeUse(engine);
  const sink = makeSink();
  let name = "a";
  const job: CellJob<unknown> = {
    watch: "data",
    compute: async (run) => {
      run.track(events.key(name));
      return name;
    },
  };
  startStreamingCell(sink, job, { engine, toHostError: asError, now: () => engine.now() });
  await flush();
  name = "b";
  await events.change("a");
  await flush();
  expect([...use.held.keys()]).toEqual([events.key("b")]);
});
