// Responses slower than the call timeout, under the 500-formula workbook. Scaled: 1.5 s
// answers against a 1 s call timeout stand for > 30 s answers against the 130 s default
// (RELIABILITY.md). The lab lets every abandoned request finish on the service's side, as
// a real service would, so its late answers are counted (and charged) like real ones.
import { RETRY } from "./support/fault-lab";
import {
  checkRow,
  closeMatrix,
  coldKeys,
  DATA,
  faults,
  startMatrix,
  type Matrix,
  type Row,
} from "./support/matrix";
import { measure } from "./support/checks";
import { runScenario } from "./support/scenario-run";

jest.setTimeout(150_000);

let matrix: Matrix;

beforeAll(async () => {
  matrix = await startMatrix();
});

afterAll(() => closeMatrix(matrix, "slow-responses"));

const SLOW = faults(DATA, { mode: "latency", latencyMs: 1_500 });

test("responses slower than the call timeout", async () => {
  const row: Row = {
    name: "responses slower than the call timeout",
    setup: { arm: SLOW },
    cause: /no answer within 1 s/,
    // The service charges a call it answers after the client gave up, and the engine retries
    // timeouts: each attempt may cost, plus the recovery's fetch (defect D1).
    maxChargesPerCode: RETRY.maxRetries + 2,
  };
  checkRow(matrix, row, await runScenario(matrix.lab, matrix.book, row.setup));
});

// Defect D1 (RELIABILITY.md; src/core/http retry policy, transport helper): a data call that
// timed out may have been charged by the service, and the engine sends it again up to
// maxRetries times. Expected: a timed-out Series Values / History call is not retried, so a
// key costs at most the timed-out attempt plus the recovery's fetch. Flip to test() once fixed.
test.failing("D1: a timed-out data call is not retried (the service may have charged it)", async () => {
  const outcome = await runScenario(matrix.lab, matrix.book, { arm: SLOW });
  expect(measure(outcome, matrix.logicalCalls).charged).toBeLessThanOrEqual(2 * coldKeys(matrix.book));
});
