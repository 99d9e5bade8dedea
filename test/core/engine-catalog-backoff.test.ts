// A cold workbook (no catalog yet) in an outage: its cells' Series Info reads wait longer
// after each failure, so hours of outage cost a handful of calls. When the service answers
// again the waits are forgotten: the next read goes at once, so the cells settle as soon as
// the service is back, not up to an hour later.
import type { Engine } from "../../src/core/engine-api";
import { DEFAULT_RETRY_POLICY } from "../../src/core/http/retry-policy";
import { QUIET_TIME } from "./http/fake-fetch";
import { fakePcd, settle, signedInEngine, type FakePcd } from "./support/fake-pcd-fetch";

const CODE = "68520-8-1";
const MINUTE = 60_000;

function seriesInfoCalls(pcd: FakePcd): number {
  return pcd.urls.filter((url) => /\/v1\/export\/series$/.test(url)).length;
}

beforeEach(() => {
  jest.useFakeTimers({ now: QUIET_TIME, doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});

afterEach(() => {
  jest.useRealTimers();
});

async function lookup(engine: Engine): Promise<PromiseSettledResult<unknown>> {
  return settle(engine.lookup(CODE), MINUTE);
}

test("after failures in a row the catalog waits longer, and reads at once when the service answers again", async () => {
  const pcd = fakePcd([
    { code: CODE, coverage: "Germany", lastAvailableFinal: "2026-09", updatedAt: "2026-10-05" },
  ]);
  const engine = await signedInEngine(pcd);
  pcd.mode = "down";
  // A cell asks every minute for half an hour (each ask takes a minute of fake time).
  const before = seriesInfoCalls(pcd);
  for (let minute = 0; minute < 30; minute += 1) {
    expect((await lookup(engine)).status).toBe("rejected");
  }
  const duringOutage = seriesInfoCalls(pcd) - before;
  // Each product's catalog read at 0, 1, 3, 7 and 15 minutes, not every minute: three
  // products, five reads each, each read one call with the client's quick retries (5 tries).
  expect(duringOutage).toBeLessThanOrEqual(3 * 5 * (1 + DEFAULT_RETRY_POLICY.maxRetries));

  // The service is back; the user's Reload is the first call to see it answer.
  pcd.mode = "up";
  expect((await settle(engine.limitsReport({ reread: true }), 1_000)).status).toBe("fulfilled");
  const found = await settle(engine.lookup(CODE), 1_000);
  expect(found).toMatchObject({ status: "fulfilled", value: { code: CODE } });
});
