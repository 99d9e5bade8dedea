// The Data Limits side of the engine on its own: when it asks the service (and when not),
// what its report says, and what the batcher's gate does with the ledger.
import type { BatchItem } from "../../src/core/batcher";
import {
  DataLimitsKeeper,
  LIMITS_MAX_AGE_MS,
  LIMITS_RETRY_AFTER_FAILURE_MS,
  LIMITS_SETTLE_QUIET_MS,
} from "../../src/core/data-limits-keeper";
import { PcdError } from "../../src/core/errors";
import type { DataLimits, ProductId, ServiceEnvironment } from "../../src/core/model";
import { QuotaLedger } from "../../src/core/quota-ledger";

const START = Date.UTC(2026, 10, 10, 16);

function setup(
  options: {
    environment?: ServiceEnvironment;
    signedIn?: boolean;
    workbook?: ProductId[];
    /** The keeper's class, e.g. from modules loaded in isolation. */
    Keeper?: typeof DataLimitsKeeper;
  } = {},
) {
  const clock = { now: START };
  const ledger = new QuotaLedger({
    now: () => clock.now,
    latestReleaseStart: () => Date.UTC(2026, 10, 6),
    nextRelease: () => Date.UTC(2026, 11, 8),
  });
  const reads: ProductId[] = [];
  const answers = new Map<ProductId, DataLimits | PcdError>([
    ["energy_price", { Germany: { remaining: 480, total: 500 } }],
    ["commodity_price", { Polymers: { remaining: 90, total: 100 } }],
    ["industry_economics", { Utilities: { remaining: 10, total: 10 } }],
  ]);
  let down: PcdError | undefined;
  let changes = 0;
  const keeper = new (options.Keeper ?? DataLimitsKeeper)({
    ledger,
    now: () => clock.now,
    read: async (product) => {
      reads.push(product);
      const answer = answers.get(product);
      if (answer instanceof PcdError || answer === undefined) throw answer ?? new Error("no answer");
      return answer;
    },
    environment: () => options.environment ?? "live",
    signedIn: () => options.signedIn ?? true,
    token: async () => "token",
    downtimeError: () => down,
    workbookProducts: () => new Set(options.workbook ?? []),
    limitsChanged: () => changes++,
  });
  return {
    keeper,
    ledger,
    clock,
    reads,
    answers,
    changes: () => changes,
    setDown: (error: PcdError | undefined) => (down = error),
  };
}

const item = (dataset: string, code = "68520-8-1"): BatchItem => ({
  key: `live|energy_price|${code}|default|default`,
  environment: "live",
  product: "energy_price",
  dataType: "energy",
  dataset,
  request: { code, currencyId: null, unitId: null },
});

describe("DataLimitsKeeper.limitsOf", () => {
  test("reads once, reuses the reading for LIMITS_MAX_AGE_MS, then reads again", async () => {
    const { keeper, reads, clock } = setup();
    expect(await keeper.limitsOf("energy_price")).toEqual({ Germany: { remaining: 480, total: 500 } });
    await keeper.limitsOf("energy_price");
    expect(reads).toEqual(["energy_price"]);
    clock.now += LIMITS_MAX_AGE_MS;
    await keeper.limitsOf("energy_price");
    expect(reads).toEqual(["energy_price", "energy_price"]);
  });

  test("a failed reading gives the last known limits, and fails when there are none", async () => {
    const { keeper, answers, clock } = setup();
    await keeper.limitsOf("energy_price");
    const failure = new PcdError("server", "The service failed (HTTP 500).");
    answers.set("energy_price", failure);
    clock.now += LIMITS_MAX_AGE_MS;
    expect(await keeper.limitsOf("energy_price")).toEqual({ Germany: { remaining: 480, total: 500 } });
    answers.set("commodity_price", failure);
    await expect(keeper.limitsOf("commodity_price")).rejects.toBe(failure);
  });

  test("a failed reading after the allowances reset fails: last month's figure is not shown as now", async () => {
    const { keeper, ledger, answers, clock } = setup();
    await keeper.limitsOf("energy_price");
    const failure = new PcdError("server", "The service failed (HTTP 502).");
    answers.set("energy_price", failure);
    clock.now += 60_000;
    ledger.resetSeen(clock.now);
    await expect(keeper.limitsOf("energy_price")).rejects.toBe(failure);
    const report = await keeper.report();
    expect(report.rows.filter((row) => row.product === "energy_price")).toEqual([]);
    expect(report.unavailable).toEqual([
      expect.objectContaining({ product: "energy_price", error: failure }),
    ]);
  });

  test("a known downtime window makes no call", async () => {
    const { keeper, reads, setDown } = setup();
    const down = new PcdError("unavailable", "The service is down for maintenance.");
    setDown(down);
    await expect(keeper.limitsOf("energy_price")).rejects.toBe(down);
    expect(reads).toEqual([]);
  });

  test("the sandbox has no monthly limits and is never asked", async () => {
    const { keeper, reads } = setup({ environment: "sandbox" });
    expect(await keeper.limitsOf("energy_price")).toEqual({});
    expect(await keeper.report()).toEqual({ rows: [], unavailable: [] });
    expect(reads).toEqual([]);
  });
});

describe("DataLimitsKeeper change events", () => {
  // A view reads the limits whenever they change: its own reading must not count as a change.
  test("a reading tells a change only when what the bars show moved", async () => {
    const { keeper, clock, answers, changes } = setup();
    await keeper.limitsOf("energy_price");
    expect(changes()).toBe(1);
    clock.now += LIMITS_MAX_AGE_MS;
    await keeper.limitsOf("energy_price");
    expect(changes()).toBe(1);
    answers.set("energy_price", { Germany: { remaining: 470, total: 500 } });
    clock.now += LIMITS_MAX_AGE_MS;
    await keeper.limitsOf("energy_price");
    expect(changes()).toBe(2);
  });
});

describe("DataLimitsKeeper after a failed read", () => {
  // A row per moment after the failure: whether a look in passing, and the user's Reload, call.
  test.each([
    ["a minute later", 60_000, false],
    ["just under the wait", LIMITS_RETRY_AFTER_FAILURE_MS - 1, false],
    ["once the wait is over", LIMITS_RETRY_AFTER_FAILURE_MS, true],
  ])("%s (%i ms after): a look in passing calls: %s; Reload always calls", async (_when, after, calls) => {
    const { keeper, clock, reads, answers } = setup();
    answers.set("energy_price", new PcdError("network", "The service could not be reached."));
    await expect(keeper.limitsOf("energy_price")).rejects.toMatchObject({ kind: "network" });
    expect(reads).toEqual(["energy_price"]);
    clock.now += after;
    await expect(keeper.limitsOf("energy_price")).rejects.toMatchObject({ kind: "network" });
    expect(reads).toHaveLength(calls ? 2 : 1);
    await keeper.report({ reread: true }).catch(() => undefined);
    expect(reads.filter((product) => product === "energy_price")).toHaveLength(calls ? 3 : 2);
  });

  test("failures in a row wait longer each time, and a success starts afresh", async () => {
    const { keeper, clock, reads, answers } = setup();
    answers.set("energy_price", new PcdError("network", "The service could not be reached."));
    await keeper.limitsOf("energy_price").catch(() => undefined);
    clock.now += LIMITS_RETRY_AFTER_FAILURE_MS;
    await keeper.limitsOf("energy_price").catch(() => undefined);
    expect(reads).toHaveLength(2);
    // Two failures in a row: twice the wait.
    clock.now += LIMITS_RETRY_AFTER_FAILURE_MS;
    await keeper.limitsOf("energy_price").catch(() => undefined);
    expect(reads).toHaveLength(2);
    clock.now += LIMITS_RETRY_AFTER_FAILURE_MS;
    answers.set("energy_price", { Germany: { remaining: 480, total: 500 } });
    await expect(keeper.limitsOf("energy_price")).resolves.toEqual({
      Germany: { remaining: 480, total: 500 },
    });
    expect(reads).toHaveLength(3);
  });
});

describe("DataLimitsKeeper.report", () => {
  test("lists every dataset, and a product whose Data Limits failed apart", async () => {
    const { keeper, answers } = setup();
    answers.set("industry_economics", new PcdError("server", "The service failed (HTTP 500)."));
    const report = await keeper.report();
    expect(report.rows.map((row) => [row.product, row.dataset, row.remaining])).toEqual([
      ["energy_price", "Germany", 480],
      ["commodity_price", "Polymers", 90],
    ]);
    expect(report.unavailable).toEqual([
      expect.objectContaining({ product: "industry_economics", message: "The service failed (HTTP 500)." }),
    ]);
  });

  test("nothing but failures: the failure itself is the answer", async () => {
    const { keeper, answers } = setup();
    const failure = new PcdError("network", "The service could not be reached.");
    for (const product of ["energy_price", "commodity_price", "industry_economics"] as const)
      answers.set(product, failure);
    await expect(keeper.report()).rejects.toBe(failure);
  });

  test("its code loads on first use: a failed load is a network error naming the cause, and the next report loads it", async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock("../../src/core/limits-report", () => {
        throw new Error("Loading chunk limits-report failed");
      });
      const { DataLimitsKeeper: IsolatedKeeper } = await import("../../src/core/data-limits-keeper");
      const { keeper, reads } = setup({ Keeper: IsolatedKeeper });
      // The isolated modules have their own PcdError class: the error is compared by its fields.
      await expect(keeper.report()).rejects.toMatchObject({
        kind: "network",
        message:
          "The add-in could not load its Data Limits report (Loading chunk limits-report failed): check the connection and try again.",
      });
      expect(reads).toEqual([]);

      jest.dontMock("../../src/core/limits-report");
      const report = await keeper.report();
      expect(report.rows.map((row) => row.dataset)).toEqual(["Germany", "Polymers", "Utilities"]);
    });
  });
});

describe("reading ahead", () => {
  test.each([
    ["a live, signed-in session reads the product once per session", { signedIn: true }, 1],
    ["signed out: no read", { signedIn: false }, 0],
    ["the sandbox: no read", { environment: "sandbox" as const }, 0],
  ])("%s", async (_case, options, expected) => {
    const { keeper, reads } = setup(options);
    keeper.readAhead("energy_price");
    keeper.readAhead("energy_price");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toHaveLength(expected);
  });

  test("a catalog fetch reads its product's limits only if the workbook may use it", async () => {
    const { keeper, reads } = setup({ workbook: ["commodity_price"] });
    keeper.readAheadForCatalog("energy_price");
    keeper.readAheadForCatalog("commodity_price");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(["commodity_price"]);
  });

  test("a reading on its way when another account signs in is not that account's: it reads its own", async () => {
    const { keeper, ledger, reads, answers } = setup();
    const asked = keeper.limitsOf("energy_price");
    // The first account's reading is on its way (its answer is composed); another account signs in.
    answers.set("energy_price", { Germany: { remaining: 12, total: 20 } });
    ledger.clear();
    keeper.newSession();
    expect(await asked).toEqual({ Germany: { remaining: 12, total: 20 } });
    expect(ledger.limitsOf("live", "energy_price")).toEqual({ Germany: { remaining: 12, total: 20 } });
    expect(reads).toEqual(["energy_price", "energy_price"]);
  });

  test("the account before's failed readings do not hold back the next account's", async () => {
    const { keeper, reads, answers } = setup();
    answers.set("energy_price", new PcdError("server", "HTTP 500"));
    await expect(keeper.limitsOf("energy_price")).rejects.toThrow("HTTP 500");
    await expect(keeper.limitsOf("energy_price")).rejects.toThrow("HTTP 500");
    expect(reads).toHaveLength(1);
    answers.set("energy_price", { Germany: { remaining: 12, total: 20 } });
    keeper.newSession();
    expect(await keeper.limitsOf("energy_price")).toEqual({ Germany: { remaining: 12, total: 20 } });
    expect(reads).toHaveLength(2);
  });

  test("a new session reads ahead again", async () => {
    const { keeper, reads, clock } = setup();
    keeper.readAhead("energy_price");
    await new Promise((resolve) => setImmediate(resolve));
    keeper.newSession();
    clock.now += LIMITS_MAX_AGE_MS; // ensure() reads only what is not current
    keeper.readAhead("energy_price");
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(["energy_price"]);
  });
});

describe("the batcher's gate", () => {
  test("admits codes against the allowance, then confirms, refunds or leaves them unconfirmed", async () => {
    const { keeper, ledger, changes } = setup();
    await keeper.ensure(["energy_price"]);
    const gate = keeper.gate();
    const admission = await gate.admit([item("Germany"), item("Germany", "68520-8-2")], "series_values");
    expect(admission.admitted).toHaveLength(2);
    gate.confirm?.([item("Germany")]);
    gate.unanswered?.([item("Germany", "68520-8-2")]);
    expect(ledger.unconfirmed("live", "energy_price", "Germany")).toBe(1);
    // Only the confirmed code is taken off the allowance; the unanswered one is counted apart.
    expect(ledger.limitsOf("live", "energy_price")?.Germany?.remaining).toBe(479);
    const refunded = await gate.admit([item("Germany", "68520-8-3")], "series_values");
    expect(ledger.unconfirmed("live", "energy_price", "Germany")).toBe(2);
    gate.refund(refunded.admitted);
    expect(ledger.unconfirmed("live", "energy_price", "Germany")).toBe(1);
    expect(changes()).toBeGreaterThanOrEqual(5);
  });

  test("a quota refusal that names a dataset blocks that dataset; the others are sent again", async () => {
    const { keeper } = setup();
    await keeper.ensure(["energy_price"]);
    const refusal = new PcdError("quota", "Quota limit reached for dataset 'Germany'.", {
      dataset: "Germany",
    });
    const verdict = keeper.gate().quotaRefused([item("Germany"), item("France")], refusal, "series_values");
    expect(verdict(item("France"))).toBe("retry");
    expect(verdict(item("Germany"))).toMatchObject({ kind: "quota" });
  });

  test("a refusal that names no dataset blocks nothing (a daily quota must not lock a dataset)", async () => {
    const { keeper } = setup();
    const refusal = new PcdError("quota", "Daily quota exceeded.");
    const verdict = keeper.gate().quotaRefused([item("Germany")], refusal, "series_values");
    expect(verdict(item("Germany"))).toBe(refusal);
  });
});

describe("a Data Limits reading taken while calls are under way", () => {
  /** The keeper with its Data Limits answers held until the test releases them, and its timers run by the test. */
  function heldSetup() {
    const context = setup();
    const held: Array<{ release: (limits: DataLimits) => void }> = [];
    const timers: Array<{ at: number; run: () => void; cancelled: boolean; background: boolean }> = [];
    const keeper = new DataLimitsKeeper({
      ledger: context.ledger,
      now: () => context.clock.now,
      read: (product) => {
        context.reads.push(product);
        return new Promise<DataLimits>((resolve) => held.push({ release: resolve }));
      },
      environment: () => "live",
      signedIn: () => true,
      token: async () => "token",
      downtimeError: () => undefined,
      workbookProducts: () => new Set(),
      limitsChanged: () => undefined,
      scheduler: {
        after: (ms, run, options) => {
          const timer = {
            at: context.clock.now + ms,
            run,
            cancelled: false,
            background: options?.background === true,
          };
          timers.push(timer);
          return () => (timer.cancelled = true);
        },
      },
    });
    const release = (remaining: number): void => {
      const next = held.shift();
      if (!next) throw new Error("no Data Limits call is waiting for its answer");
      next.release({ Germany: { remaining, total: 500 } });
    };
    /** Moves the clock by `ms`, running the timers due by then. */
    const advance = (ms: number): void => {
      context.clock.now += ms;
      for (const timer of timers.splice(0)) {
        if (timer.cancelled) continue;
        if (timer.at <= context.clock.now) timer.run();
        else timers.push(timer);
      }
    };
    return { ...context, keeper, release, held, advance, timers };
  }
  /** A first reading, answered at once. */
  const readOnce = async (context: ReturnType<typeof heldSetup>, remaining: number): Promise<void> => {
    const first = context.keeper.limitsOf("energy_price");
    context.release(remaining);
    await first;
  };
  /** One call of one code of Germany, admitted and confirmed (the service charged it). */
  const oneCall = async (context: ReturnType<typeof heldSetup>): Promise<void> => {
    const gate = context.keeper.gate();
    const admission = await gate.admit([item("Germany")], "series_values");
    gate.confirm?.(admission.admitted);
  };
  const germany = (context: { ledger: QuotaLedger }): number | undefined =>
    context.ledger.limitsOf("live", "energy_price")?.Germany?.remaining;

  test("an answer composed before a charge that was confirmed first does not bring the charge back", async () => {
    const context = heldSetup();
    const { keeper, release } = context;
    await readOnce(context, 480);
    // The clock moves past the reading's age: a view reads again while a call goes out.
    context.clock.now += LIMITS_MAX_AGE_MS;
    const reading = keeper.limitsOf("energy_price");
    await oneCall(context);
    // The service answered Data Limits before it charged the call.
    release(480);
    expect((await reading).Germany?.remaining).toBe(479);
    expect(germany(context)).toBe(479);
  });

  test("an answer that already holds a charge confirmed after it is read again once the calls have stayed over", async () => {
    const context = heldSetup();
    const { keeper, release, reads } = context;
    const gate = keeper.gate();
    await readOnce(context, 480);
    context.clock.now += LIMITS_MAX_AGE_MS;
    const admission = await gate.admit([item("Germany")], "series_values");
    const reading = keeper.limitsOf("energy_price");
    // The service charged the call in flight, then answered Data Limits, then the call's answer came.
    release(479);
    await reading;
    gate.confirm?.(admission.admitted);
    expect(germany(context)).toBe(478);
    // A view looking now shows the ledger's figure and asks nothing.
    await keeper.limitsOf("energy_price");
    expect(reads).toHaveLength(2);
    // The settling read is background work: a finished runner does not stay up for it.
    expect(context.timers.filter((timer) => !timer.cancelled).map((timer) => timer.background)).toEqual([
      true,
    ]);
    context.advance(LIMITS_SETTLE_QUIET_MS - 1);
    expect(reads).toHaveLength(2);
    context.advance(1);
    expect(reads).toHaveLength(3);
    release(479);
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    expect(germany(context)).toBe(479);
    expect(context.ledger.needsSettling("live", "energy_price")).toBe(false);
    context.advance(LIMITS_SETTLE_QUIET_MS);
    expect(reads).toHaveLength(3);
  });

  test("a run of calls ends in one settling read, however often a view looks meanwhile", async () => {
    const context = heldSetup();
    const { keeper, release, reads } = context;
    const gate = keeper.gate();
    const first = keeper.limitsOf("energy_price");
    const admission = await gate.admit([item("Germany")], "series_values");
    release(480);
    await first;
    gate.confirm?.(admission.admitted);
    // Eleven more calls, one after another, each ending before the quiet wait is over.
    for (let call = 0; call < 11; call += 1) {
      context.advance(LIMITS_SETTLE_QUIET_MS / 2);
      await oneCall(context);
      await keeper.limitsOf("energy_price");
    }
    expect(reads).toHaveLength(1);
    context.advance(LIMITS_SETTLE_QUIET_MS);
    expect(reads).toHaveLength(2);
  });

  test("a reading with no call under way is settled: no second call", async () => {
    const context = heldSetup();
    const { keeper, reads } = context;
    await readOnce(context, 480);
    await oneCall(context);
    expect(context.ledger.needsSettling("live", "energy_price")).toBe(false);
    expect((await keeper.limitsOf("energy_price")).Germany?.remaining).toBe(479);
    context.advance(LIMITS_SETTLE_QUIET_MS);
    expect(reads).toHaveLength(1);
  });
});
