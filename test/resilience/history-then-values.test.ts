// Faults between the two parts of a key (RELIABILITY.md F-15 to F-20). On the real service a whole
// table needs two calls per key: History (the months before the Series Values window) and
// Series Values (the window and the forecasts; docs/engine.md). When History arrives and
// Series Values does not, the cache holds a series that stops 13 months early: it must
// never be shown as current. Each row makes the second part fail for the workbook's cold
// keys (the allowance running out between the parts; malformed, slow, 500 or dropped
// Series Values answers while History succeeds) and checks: every cell settles with a
// value or a message naming the cause, no wrong number (cells that read the window say
// the latest months could not be fetched; cells that read only older months show them),
// no code element charged twice per operation, a charged or timed-out Series Values call
// is not sent again by cells re-running after History arrived, the cache keeps what it
// had, and once the fault clears the recovery buys each missing part with one request.
import { RETRY, TIMEOUT_CAUSE, type Exchange, type FaultLab } from "./support/fault-lab";
import {
  expectCacheIntact,
  expectNoWrongNumber,
  expectRecovered,
  expectSettled,
  measure,
} from "./support/checks";
import { coldNeeds, coldRequests, partsRead, type KeyNeed } from "./support/data-requests";
import { closeMatrix, faults, held, startMatrix, type Matrix } from "./support/matrix";
import { results, runScenario, type ScenarioOutcome, type ScenarioSetup } from "./support/scenario-run";

jest.setTimeout(120_000);

let matrix: Matrix;

beforeAll(async () => {
  matrix = await startMatrix();
});

afterAll(() => closeMatrix(matrix, "history-then-values"));

const VALUES = ["series_values"];

/** A dataset of one product (a cell spells it "commodity_price|Polymers"). */
interface Dataset {
  product: string;
  coverage: string;
}

/** The dataset with the most cold keys whose cells read both parts (whole tables). */
function twoPartDataset(): Dataset {
  const counts = new Map<string, number>();
  for (const need of coldNeeds(matrix.book)) {
    if (need.parts.size === 2) counts.set(need.dataset, (counts.get(need.dataset) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  if (!best) throw new Error("the workbook has no cold whole-table key");
  const [product, coverage] = best[0].split("|");
  return { product: product!, coverage: coverage! };
}

function inDataset(dataset: Dataset | null): (need: KeyNeed) => boolean {
  return (need) => dataset === null || need.dataset === `${dataset.product}|${dataset.coverage}`;
}

/**
 * A key as the lab sees its code element: "commodity_price|40992-3-2" for the default
 * currency, "commodity_price|40992-3-2&" for another one (the workbook converts each
 * series into at most one other currency, so this names the key).
 */
function elementOfKey(need: KeyNeed): string {
  const [product] = need.dataset.split("|");
  const [code, currency] = need.key.split("|");
  return `${product}|${code}${currency ? "&" : ""}`;
}

/** "energy_price|live|68520-8-1&c=3" -> "energy_price|68520-8-1&". */
function elementOfCode(element: string): string {
  const [product, , code] = element.split("|");
  return `${product}|${code!.replace(/&.*$/, "&")}`;
}

/** True when a data call carries a code of the dataset's cold keys. */
function carries(call: { codes: string[] }, dataset: Dataset): boolean {
  const cold = new Set(coldNeeds(matrix.book).filter(inDataset(dataset)).map(elementOfKey));
  return call.codes.some((element) => cold.has(elementOfCode(element)));
}

/**
 * True once every History call sent so far has its answer. The engine sends a group's
 * History call before its Series Values call; a Series Values call that waits for that
 * answer reaches the service after History was charged, as when both go in parallel and
 * History is answered first. (Waiting for History calls not yet sent could hold the send
 * slot they need.)
 */
function historyAnswered(lab: FaultLab): boolean {
  return !lab.exchanges.some((exchange) => exchange.operation === "series_hist" && exchange.status === null);
}

/**
 * True once the History of every cold key of the dataset has been answered. The engine
 * asks for both parts of a key at once, and which call reaches the service first depends
 * on the other groups queued before it (a group's History call may wait behind other
 * products' History calls while its Series Values call goes at once): a row that needs
 * History charged first waits for the dataset's History itself, not only for the History
 * calls already sent. The held Series Values call keeps one of the engine's six calls in
 * flight; the History calls use the others.
 */
function datasetHistoryAnswered(lab: FaultLab, dataset: Dataset): boolean {
  const answered = new Set(
    lab.exchanges
      .filter((exchange) => exchange.operation === "series_hist" && exchange.status !== null)
      .flatMap((exchange) => exchange.codes.map(elementOfCode)),
  );
  return coldNeeds(matrix.book)
    .filter((need) => inDataset(dataset)(need) && need.parts.has("series_hist"))
    .every((need) => answered.has(elementOfKey(need)));
}

/** The parts each key received in a pass ("series_values|commodity_price|40992-3-2"). */
function deliveredParts(exchanges: readonly Exchange[]): Set<string> {
  return new Set(
    exchanges
      .filter((exchange) => exchange.charged)
      .flatMap((exchange) =>
        exchange.codes.map((element) => `${exchange.operation}|${elementOfCode(element)}`),
      ),
  );
}

/**
 * Sends per operation and code element that the service may have charged: refusals
 * (4xx: an exhausted allowance refuses the whole call, free of charge) are left out, as
 * the engine rightly sends the other datasets' codes again.
 */
function chargeableSends(exchanges: readonly Exchange[]): Map<string, number> {
  return matrix.lab.sentPerCode(
    exchanges.filter(
      (exchange) => exchange.status === null || exchange.status < 400 || exchange.status >= 500,
    ),
  );
}

interface PartRow {
  name: string;
  setup: ScenarioSetup;
  /** What every error message of the faulted pass says. */
  cause: (dataset: Dataset) => RegExp;
  /** The dataset whose second part fails (null: every dataset). */
  dataset: () => Dataset | null;
  /** Times a Series Values code element may be sent in the faulted pass (retries included). */
  maxValuesSends: number;
  /** The service also charges Series Values answers the engine gave up on (a timeout). */
  lateValuesCharged?: boolean;
}

const allowanceRows: PartRow[] = [
  {
    name: "the allowance is exactly the History requests; Series Values is refused",
    setup: {
      arm: async (lab) => {
        const dataset = twoPartDataset();
        const history = coldNeeds(matrix.book).filter(
          (need) => inDataset(dataset)(need) && need.parts.has("series_hist"),
        ).length;
        await lab.admin("quota", { product: dataset.product, dataset: dataset.coverage, remaining: history });
        // History first: the dataset's Series Values calls wait until its History was
        // answered (and spent the allowance).
        lab.hooks.beforeDataCall = async (_, call) => {
          if (call.operation === "series_values" && carries(call, dataset)) {
            await lab.until(
              () => datasetHistoryAnswered(lab, dataset) && historyAnswered(lab),
              `the History answers of ${dataset.product}|${dataset.coverage}`,
            );
          }
        };
      },
      recoverIn: "new-session",
    },
    cause: (dataset) => new RegExp(`allowance.*'${dataset.coverage}'|'${dataset.coverage}'.*quota`, "i"),
    dataset: twoPartDataset,
    maxValuesSends: 1,
  },
  {
    name: "the allowance is set to 0 once the dataset's History was answered",
    setup: {
      arm: async (lab) => {
        const dataset = twoPartDataset();
        lab.hooks.beforeDataCall = async (_, call) => {
          if (call.operation === "series_values" && carries(call, dataset)) {
            await lab.until(
              () => datasetHistoryAnswered(lab, dataset) && historyAnswered(lab),
              `the History answers of ${dataset.product}|${dataset.coverage}`,
            );
            await lab.admin("quota", { product: dataset.product, dataset: dataset.coverage, remaining: 0 });
          }
        };
      },
      recoverIn: "new-session",
    },
    cause: (dataset) => new RegExp(`allowance.*'${dataset.coverage}'|'${dataset.coverage}'.*quota`, "i"),
    dataset: twoPartDataset,
    maxValuesSends: 1,
  },
];

const valuesFaultRows: PartRow[] = [
  {
    name: "Series Values answers are malformed (History succeeds)",
    setup: { arm: faults(VALUES, { mode: "malformed" }), charged: true },
    cause: () => /not valid JSON/,
    dataset: () => null,
    // Possibly charged: never sent again in the recalculation.
    maxValuesSends: 1,
  },
  {
    name: "Series Values answers are slower than the call timeout (History succeeds)",
    setup: { arm: held(VALUES) },
    cause: () => TIMEOUT_CAUSE,
    dataset: () => null,
    maxValuesSends: 1,
    lateValuesCharged: true,
  },
  {
    name: "Series Values answers HTTP 500 (History succeeds)",
    setup: { arm: faults(VALUES, { mode: "status", status: 500 }) },
    cause: () => /HTTP 500/,
    dataset: () => null,
    // Retried within the call, then not asked again in the recalculation.
    maxValuesSends: 1 + RETRY.maxRetries,
  },
  {
    name: "Series Values connections are dropped (History succeeds)",
    setup: { arm: faults(VALUES, { mode: "drop" }) },
    cause: () => /could not be reached|connection|network/i,
    dataset: () => null,
    maxValuesSends: 1 + RETRY.maxRetries,
  },
];

/** Cold-key cells in scope, with the parts each reads. */
function coldCells(dataset: Dataset | null): Array<{ index: number; key: string; parts: string[] }> {
  const { book } = matrix;
  const scope = new Map(
    coldNeeds(book)
      .filter(inDataset(dataset))
      .map((need) => [need.key, need]),
  );
  const infos = new Map(book.series.map((info) => [info.code, info]));
  return book.cells.flatMap((cell, index) => {
    if (cell.source.kind !== "data") return [];
    const need = scope.get(cell.source.series);
    if (!need) return [];
    const info = infos.get(cell.source.series.split("|")[0]!)!;
    const parts = partsRead(cell.source.reads, info.lastAvailableFinal);
    return [{ index, key: elementOfKey(need), parts }];
  });
}

function checkPartRow(row: PartRow, outcome: ScenarioOutcome): void {
  const { book, oracle, logicalCalls } = matrix;
  const dataset = row.dataset();
  const measured = measure(outcome, logicalCalls);
  matrix.measured[row.name] = measured;
  const cause = row.cause(dataset ?? { product: "", coverage: "" });
  expectSettled(outcome, book, cause);
  expectNoWrongNumber(outcome, book, oracle);
  expectCacheIntact(outcome);

  // Never partial as current: a cold-key cell shows a value only when every part it reads
  // was delivered in this pass. A History part alone never answers a cell reading the window.
  const faulted = results(outcome.faulted);
  const delivered = deliveredParts(outcome.faultExchanges);
  const cells = coldCells(dataset);
  const unvouched = cells.filter(
    ({ index, key, parts }) =>
      "value" in faulted[index]! && parts.some((part) => !delivered.has(`${part}|${key}`)),
  );
  expect(unvouched.map(({ index }) => book.cells[index]!.formula)).toEqual([]);
  // The fault did come between the parts: some whole table got its History and not its
  // window, and says so (the latest months could not be fetched, naming the cause).
  const cut = cells.filter(
    ({ index, key, parts }) =>
      parts.length === 2 &&
      delivered.has(`series_hist|${key}`) &&
      !delivered.has(`series_values|${key}`) &&
      "error" in faulted[index]!,
  );
  expect(cut.length).toBeGreaterThan(0);
  for (const { index } of cut) {
    const result = faulted[index]!;
    // "<cause>: the latest months of <code> could not be fetched." (a long cause is cut in
    // its middle to Excel's message length: what is missing always stays whole).
    if ("error" in result)
      expect(result.error.message).toMatch(/the latest months of [\w-]+ could not be fetched\./);
  }
  // With History answered (Series Values faults), cells reading only older months show them.
  if (dataset === null) {
    const older = cells.filter(({ parts }) => !parts.includes("series_values"));
    expect(older.filter(({ index }) => !("value" in faulted[index]!))).toEqual([]);
  }

  // No code element charged twice per operation (the lab's witness over both passes), and
  // no Series Values code sent again in the faulted pass beyond the call's own retries
  // (cells re-running once History arrived do not send it again).
  expect([...outcome.charges].filter(([, count]) => count > 1)).toEqual([]);
  const sent = [...chargeableSends(outcome.faultExchanges)];
  expect(
    sent.filter(([key, count]) => key.startsWith("series_values|") && count > row.maxValuesSends),
  ).toEqual([]);
  expect(sent.filter(([key, count]) => key.startsWith("series_hist|") && count > 1)).toEqual([]);

  // The recovery buys each missing part with one request: what the cold keys need minus
  // what the faulted pass delivered.
  expect(measured.recoveryCharged).toBe(coldRequests(book) - delivered.size);
  if (row.lateValuesCharged) {
    // The service charged the answers the engine gave up on; the recovery buys them once more.
    const valuesParts = coldRequests(book, (need) => need.parts.has("series_values"));
    expect(measured.charged).toBeLessThanOrEqual(coldRequests(book) + valuesParts);
  } else {
    expect(measured.charged).toBe(coldRequests(book));
  }
  expectRecovered(outcome, book, oracle);
}

test.each([...allowanceRows, ...valuesFaultRows])("$name", async (row) => {
  checkPartRow(row, await runScenario(matrix.lab, matrix.book, row.setup));
});
