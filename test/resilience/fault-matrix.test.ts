// The fault matrix (RELIABILITY.md): a 500-formula workbook over the three products, recalculated
// through the headless runner (real custom functions, real engine, real HTTP) against the
// emulator while one fault is active, then again once it clears. For every fault: every
// cell settles with a value or a message naming the cause, no cell shows a wrong number,
// no cached entry is lost or changed, retries stay bounded, no code is charged twice by one
// operation (History and Series Values are two parts of a key, docs/engine.md), the service
// charges the requests the cold keys' cells need, and the recalculation after the fault
// restores every cell. Faults between a key's two parts: history-then-values.test.ts;
// answers slower than the call timeout: slow-responses.test.ts. The lab's clock moves only
// to the engine's own timers (support/fault-lab.ts): no scenario waits real seconds.
import {
  dataAttemptBound,
  expectCacheIntact,
  expectNoWrongNumber,
  expectRecovered,
  expectSettled,
  measure,
} from "./support/checks";
import { coldRequests, keyNeeds } from "./support/data-requests";
import { FaultLab } from "./support/fault-lab";
import {
  checkRow,
  closeMatrix,
  DATA,
  faults,
  startMatrix,
  START,
  type Matrix,
  type Row,
} from "./support/matrix";
import { recalc, results, runScenario } from "./support/scenario-run";

jest.setTimeout(120_000);

let matrix: Matrix;

beforeAll(async () => {
  matrix = await startMatrix();
});

afterAll(() => closeMatrix(matrix, "fault-matrix"));

test("the oracle run is fault-free and complete", () => {
  const { oracle, logicalCalls } = matrix;
  expect(oracle).toHaveLength(500);
  expect(oracle.filter((result) => "error" in result)).toEqual([]);
  expect(logicalCalls).toBeGreaterThan(0);
});

const rows: Row[] = [
  {
    name: "20% of data calls fail with HTTP 500",
    // Batching turns 500 formulas into ~6 data calls, so 20% is about one call: the seeded
    // 20% fault plus one certain 500 make sure the fault bites.
    setup: {
      arm: async (faultLab) => {
        await faults(DATA, { mode: "status", status: 500, rate: 0.2 })(faultLab);
        await faultLab.admin("faults", { operation: "series_hist", mode: "status", status: 500, count: 1 });
      },
    },
    cause: /HTTP 500/,
  },
  {
    name: "bursts of 429 with Retry-After",
    setup: { arm: faults(["*"], { mode: "status", status: 429, rate: 0.5, count: 12 }) },
    cause: /429|too many|rate/i,
  },
  {
    name: "503 for the whole recalculation",
    setup: { arm: faults(["*"], { mode: "status", status: 503 }) },
    cause: /is failing: it answered HTTP 503/,
  },
  {
    name: "dropped connections",
    setup: { arm: faults(DATA, { mode: "drop", rate: 0.5 }) },
    cause: /could not be reached|connection|network/i,
  },
  {
    name: "truncated or malformed JSON",
    setup: { arm: faults(DATA, { mode: "malformed", rate: 0.5 }), charged: true },
    cause: /not valid JSON/,
  },
];

/** Service clock only: the engine still trusts its token, the service finds it expired. */
const TOKEN_LIFETIME_MS = 2 * 60 * 60_000;

rows.push(
  {
    name: "the token expires in the middle of the recalculation",
    setup: {
      arm: async (faultLab) => {
        faultLab.hooks.beforeDataCall = async (n) => {
          if (n === 2)
            await faultLab.setClock(
              new Date(faultLab.now() + TOKEN_LIFETIME_MS + 60_000).toISOString(),
              false,
            );
        };
      },
      disarm: (faultLab) => faultLab.setClock(new Date(faultLab.now()).toISOString(), false),
    },
    cause: /^$/,
  },
  {
    name: "the service is unreachable",
    setup: {
      arm: async (faultLab) => {
        faultLab.hooks.unreachable = true;
      },
    },
    cause: /could not be reached/,
  },
);

test.each(rows)("$name", async (row) => {
  checkRow(matrix, row, await runScenario(matrix.lab, matrix.book, row.setup));
});

/** Cells of one dataset (e.g. "commodity_price|Polymers"). */
function cellsOf(dataset: string): Set<number> {
  const { book } = matrix;
  return new Set(book.cells.flatMap((cell, index) => (cell.dataset === dataset ? [index] : [])));
}

/** Data requests the cold keys outside a dataset need (all cold keys for null). */
function coldRequestsOutside(dataset: string | null): number {
  return coldRequests(matrix.book, (need) => need.dataset !== dataset);
}

test("one dataset's allowance runs out in the middle: its cells say so, the others continue", async () => {
  const { lab, book, oracle, logicalCalls, measured } = matrix;
  const cold = book.series.slice(book.warmSeries.size).find((info) => info.product === "commodity_price")!;
  const dataset = `${cold.product}|${cold.coverage}`;
  const outcome = await runScenario(lab, book, {
    arm: async (faultLab) => {
      faultLab.hooks.beforeDataCall = async (n) => {
        if (n === 1) {
          await faultLab.admin("quota", { dataset: cold.coverage, remaining: 0, product: cold.product });
        }
      };
    },
  });
  const name = "one dataset's allowance runs out mid-run";
  measured[name] = measure(outcome, logicalCalls);
  const exhausted = new RegExp(`allowance.*'${cold.coverage}'|'${cold.coverage}'.*quota`, "i");
  expectSettled(outcome, book, exhausted);
  expectNoWrongNumber(outcome, book, oracle);
  expectCacheIntact(outcome);
  const faulted = results(outcome.faulted);
  const own = cellsOf(dataset);
  // Only cells of the exhausted dataset fail (those not cached before): the rest of its call was sent again.
  const failed = faulted.flatMap((result, index) => ("error" in result ? [index] : []));
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.filter((index) => !own.has(index))).toEqual([]);
  expect(measured[name]!.dataAttempts).toBeLessThanOrEqual(dataAttemptBound(logicalCalls));
  expect([...outcome.charges].filter(([, count]) => count > 1)).toEqual([]);
  expect(measured[name]!.charged).toBe(coldRequestsOutside(dataset));
  // The service's allowance is back (the lab reset it), but the engine keeps its word: no
  // call for that dataset until the next release; every other cell is restored.
  const recovered = results(outcome.recovered);
  book.cells.forEach((cell, index) => {
    const result = recovered[index]!;
    if (cell.source.kind === "limits") return;
    if (own.has(index) && "error" in result) expect(result.error.message).toMatch(exhausted);
    else expect(result).toEqual(oracle[index]);
  });
});

test("the daily quota runs out in the middle of the recalculation", async () => {
  const { lab, book, oracle, logicalCalls, measured } = matrix;
  // Measure what a warm-up spends, then give a second service (same seed and clock, so the
  // same data) a daily quota that lasts two calls beyond it.
  await lab.resetAll();
  await recalc(await lab.signedInEngine(), book.warmFormulas);
  const warmCalls = lab.exchanges.filter((exchange) => exchange.operation !== "access_token").length;
  const quotaLab = await FaultLab.start(START, { dailyQuota: warmCalls + 2 });
  try {
    const outcome = await runScenario(quotaLab, book, {
      arm: async () => undefined,
      resetBeforeFault: false,
    });
    const name = "the daily quota runs out mid-run";
    measured[name] = measure(outcome, logicalCalls);
    expectSettled(outcome, book, /daily quota|quota/i);
    expectNoWrongNumber(outcome, book, oracle);
    expectCacheIntact(outcome);
    expect(measured[name]!.errors).toBeGreaterThan(0);
    expect(measured[name]!.dataAttempts).toBeLessThanOrEqual(dataAttemptBound(logicalCalls));
    expect([...outcome.charges].filter(([, count]) => count > 1)).toEqual([]);
    // Counters were not reset after the warm-up (the quota is the day's): every part a key's
    // cells read, once (the warm keys' whole tables were bought by the warm-up).
    expect(measured[name]!.charged).toBe(keyNeeds(book).reduce((total, need) => total + need.parts.size, 0));
    // A new day (the lab's reset) and one recalculation restore every cell.
    expectRecovered(outcome, book, oracle);
  } finally {
    await quotaLab.close();
  }
});

test("scheduled maintenance for the whole recalculation: no call, cached cells show data, the others say until when", async () => {
  const { lab, book, oracle, logicalCalls, measured } = matrix;
  const outcome = await runScenario(lab, book, {
    // 25 Nov, 08:00 US Central: inside the 06:00-22:00 window; both clocks move.
    arm: (faultLab) => faultLab.setClock("2026-11-25T14:00:00Z"),
    // 23:00 US Central: the window is over, no release since.
    disarm: (faultLab) => faultLab.setClock("2026-11-26T05:00:00Z"),
  });
  const name = "scheduled maintenance (15th/25th)";
  measured[name] = measure(outcome, logicalCalls);
  expectSettled(outcome, book, /down for maintenance until 22:00 US Central Time/);
  expectNoWrongNumber(outcome, book, oracle);
  expectCacheIntact(outcome);
  expect(measured[name]!.errors).toBeGreaterThan(0);
  // The schedule is known: not one call is sent during the window, not even a token renewal.
  expect(outcome.faultExchanges).toEqual([]);
  expect(measured[name]!.charged).toBe(coldRequestsOutside(null));
  expectRecovered(outcome, book, oracle);
});
