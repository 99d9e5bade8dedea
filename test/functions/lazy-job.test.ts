// A function's job code on first use: loaded once and shared, the loaded job answers for the
// cell, a failed load is a cell error naming the function and its cause, and the next use
// loads again. Loads are held and released by the test (no timers, no network).
import type { Engine } from "../../src/core/engine-api";
import { isPcdError } from "../../src/core/errors";
import { runCell } from "../../src/functions/cell-runner";
import { toCellError } from "../../src/functions/cell-errors";
import { PLAIN_SERIAL_DATES } from "../../src/functions/host-capabilities";
import { lazyJob, type JobFactory } from "../../src/functions/lazy-job";
import { FIRST_RETRY_MS, RETRY_JITTER } from "../../src/functions/retry-schedule";
import type { CellJob, CellRun, CellWatch } from "../../src/functions/streaming-cell";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { setEngine } from "../../src/host/shared-engine";
import { realEngine } from "./support/real-engine";

interface StubModule {
  stubJob: JobFactory<string, string>;
}

/** A job that answers "<args> computed" and tracks one key; its watch and fast path as given. */
function stubJob(watch: CellWatch, now?: string): CellJob<string> {
  return {
    watch,
    compute: (run) => {
      run.track("key-1");
      return Promise.resolve("computed");
    },
    ...(now === undefined ? {} : { computeNow: () => now }),
  };
}

/** A loader whose loads wait until the test settles them, counting how often it was asked. */
class HeldLoader {
  calls = 0;
  private pending: Array<{ resolve: (module: StubModule) => void; reject: (error: unknown) => void }> = [];

  constructor(private readonly job: JobFactory<string, string>) {}

  readonly load = (): Promise<StubModule> => {
    this.calls += 1;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  };

  succeed(): void {
    for (const load of this.pending.splice(0)) load.resolve({ stubJob: this.job });
  }

  fail(error: unknown): void {
    for (const load of this.pending.splice(0)) load.reject(error);
  }
}

const engine = {} as Engine;

function recordingRun(): CellRun & { keys: string[] } {
  const keys: string[] = [];
  return { keys, track: (key) => keys.push(key), stale: () => undefined };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the promise resolved; a rejection was expected");
}

describe("lazyJob", () => {
  test("the first use loads the code once; a cell made after the load gets the loaded job itself", async () => {
    const loaded = stubJob("meta");
    const loader = new HeldLoader(() => loaded);
    const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
    expect(loader.calls).toBe(0);

    const first = make(engine, "a", PLAIN_SERIAL_DATES);
    const result = first.compute(recordingRun());
    loader.succeed();
    await expect(result).resolves.toBe("computed");

    expect(make(engine, "b", PLAIN_SERIAL_DATES)).toBe(loaded);
    expect(loader.calls).toBe(1);
  });

  test("cells computing before the code is there share one load and each gets its job", async () => {
    const made: string[] = [];
    const loader = new HeldLoader((_engine, args) => {
      made.push(args);
      return stubJob("data");
    });
    const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
    const results = ["a", "b", "c"].map((args) =>
      make(engine, args, PLAIN_SERIAL_DATES).compute(recordingRun()),
    );
    loader.succeed();

    await expect(Promise.all(results)).resolves.toEqual(["computed", "computed", "computed"]);
    expect(loader.calls).toBe(1);
    expect(made).toEqual(["a", "b", "c"]);
  });

  test.each<{ name: string; cause: unknown; message: string }>([
    {
      name: "a chunk that did not load",
      cause: new Error("Loading chunk pcd-stub failed."),
      message:
        "PCD could not load the code of PCD.STUB (Loading chunk pcd-stub failed.): check the connection; the cell tries again.",
    },
    {
      name: "a rejection that is not an Error",
      cause: "offline",
      message:
        "PCD could not load the code of PCD.STUB (offline): check the connection; the cell tries again.",
    },
  ])(
    "a failed load ($name) is #N/A naming the function and the cause, a passing failure",
    async ({ cause, message }) => {
      const loader = new HeldLoader(() => stubJob("data"));
      const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
      const result = make(engine, "a", PLAIN_SERIAL_DATES).compute(recordingRun());
      loader.fail(cause);

      const error = await rejection(result);
      expect(isPcdError(error) && error.kind).toBe("network");
      expect(toCellError(error)).toEqual({ type: "#N/A", message });
    },
  );

  test("after a failed load the next use loads again, and the same cell's retry succeeds", async () => {
    const loader = new HeldLoader(() => stubJob("data"));
    const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
    const cell = make(engine, "a", PLAIN_SERIAL_DATES);
    const failed = cell.compute(recordingRun());
    loader.fail(new Error("Loading chunk pcd-stub failed."));
    await rejection(failed);

    const retried = cell.compute(recordingRun());
    loader.succeed();
    await expect(retried).resolves.toBe("computed");
    expect(loader.calls).toBe(2);
  });

  test.each<{ name: string; loaded: boolean; watch: CellWatch; now: string | undefined }>([
    {
      name: "before the code is there: a data cell without a fast path",
      loaded: false,
      watch: "data",
      now: undefined,
    },
    {
      name: "once the code is there: the loaded job's watch and fast path",
      loaded: true,
      watch: "catalog",
      now: "at once",
    },
  ])("a cell's watch and fast path $name", async ({ loaded, watch, now }) => {
    const loader = new HeldLoader(() => stubJob("catalog", "at once"));
    const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
    const cell = make(engine, "a", PLAIN_SERIAL_DATES);
    const run = recordingRun();
    if (loaded) {
      const result = cell.compute(run);
      loader.succeed();
      await result;
    }
    expect(cell.watch).toBe(watch);
    expect(cell.computeNow?.((): void => undefined)).toBe(now);
    expect(run.keys).toEqual(loaded ? ["key-1"] : []);
  });
});

describe("a cell whose code does not load", () => {
  beforeAll(() => installCustomFunctionsShim());
  // The engine's clock reads 08:30; the cell's retry is timed on it.
  beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-15T08:30:00Z") }));
  afterEach(() => {
    jest.useRealTimers();
    setEngine(undefined);
  });

  test("shows the cause and when it tries again, then shows its value once the code loads", async () => {
    const h = realEngine([{ info: { code: "1-1-1" }, finals: { "2026-10": 1 } }]);
    h.clock.now = Date.parse("2026-11-15T08:30:00Z");
    setEngine(h.engine);
    const loader = new HeldLoader(() => stubJob("data"));
    const make = lazyJob("PCD.STUB", loader.load, (module) => module.stubJob);
    const invocation = {
      results: [] as unknown[],
      setResult(value: unknown) {
        this.results.push(value);
      },
      onCanceled: undefined as (() => void) | undefined,
    };
    runCell(invocation as unknown as CustomFunctions.StreamingInvocation<string>, (cellEngine, host) =>
      make(cellEngine, "a", host),
    );
    loader.fail(new Error("Loading chunk pcd-stub failed."));
    for (let i = 0; i < 20 && invocation.results.length === 0; i += 1) await Promise.resolve();
    expect(invocation.results).toEqual([
      expect.objectContaining({
        message:
          "PCD could not load the code of PCD.STUB (Loading chunk pcd-stub failed.): check the connection; the cell tries again. Will try again at 08:31 UTC.",
      }),
    ]);

    // The first retry comes a minute later, give or take its jitter.
    await jest.advanceTimersByTimeAsync(FIRST_RETRY_MS * (1 + RETRY_JITTER));
    expect(loader.calls).toBe(2);
    loader.succeed();
    for (let i = 0; i < 20 && invocation.results.length === 1; i += 1) await Promise.resolve();
    invocation.onCanceled?.();
    expect(invocation.results[1]).toBe("computed");
  });
});
