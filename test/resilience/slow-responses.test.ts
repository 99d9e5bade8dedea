// Responses slower than the call timeout, under the 500-formula workbook. The lab holds
// every data call until the engine gives up on it (the lab's clock passes the 5 s call
// timeout that stands for the 130 s default, RELIABILITY.md), then lets the service answer
// it, as a real service would, so its late answers are counted (and charged) like real ones.
import { checkRow, closeMatrix, DATA, held, startMatrix, type Matrix, type Row } from "./support/matrix";
import { measure } from "./support/checks";
import { TIMEOUT_CAUSE } from "./support/fault-lab";
import { coldRequests } from "./support/data-requests";
import { runScenario } from "./support/scenario-run";

jest.setTimeout(120_000);

let matrix: Matrix;

beforeAll(async () => {
  matrix = await startMatrix();
});

afterAll(() => closeMatrix(matrix, "slow-responses"));

const SLOW = held(DATA);

test("responses slower than the call timeout", async () => {
  const row: Row = {
    name: "responses slower than the call timeout",
    setup: { arm: SLOW },
    cause: TIMEOUT_CAUSE,
    // The service charges a call it answers after the client gave up; the engine does not
    // resend a timed-out data call, so a key costs that attempt plus the recovery's fetch.
    maxChargesPerCode: 2,
  };
  checkRow(matrix, row, await runScenario(matrix.lab, matrix.book, row.setup));
});

// F-5 (RELIABILITY.md): a data call that timed out may have been charged by the
// service; it is not sent again at once, so each part a key's cells read costs at most the
// timed-out attempt plus the recovery's fetch (retrying it at once could cost up to 6).
test("F-5: a timed-out data call is not retried (the service may have charged it)", async () => {
  const outcome = await runScenario(matrix.lab, matrix.book, { arm: SLOW });
  expect(measure(outcome, matrix.logicalCalls).charged).toBeLessThanOrEqual(2 * coldRequests(matrix.book));
});
