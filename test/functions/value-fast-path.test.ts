// PCD.VALUE, PCD.VALUES and PCD.INFO on the real engine: the fast path (computeNow) gives exactly what
// the asynchronous path gives, and declines what only the asynchronous path can answer.
import type { SeriesNeed } from "../../src/core/series-need";
import { PLAIN_SERIAL_DATES } from "../../src/functions/host-capabilities";
import type { CellJob } from "../../src/functions/streaming-cell";
import { infoJob } from "../../src/functions/info";
import { valueJob, type ValueArguments } from "../../src/functions/value";
import { valuesJob, type ValuesArguments } from "../../src/functions/values";
import { createHarness } from "../core/support/engine-harness";
import { FakeService } from "../core/support/fake-service";
import { seriesInfo } from "../core/support/series-fixtures";

const CODE = "68520-8-1";

function harness() {
  const service = new FakeService();
  service.addSeries(seriesInfo({ code: CODE }));
  service.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  return createHarness({ service });
}

const VALUES_ARGS: ValuesArguments = {
  code: CODE,
  currency: null,
  unit: null,
  start_date: "2026-01",
  end_date: null,
  headers: 1,
  forecast: 1,
  order: 0,
};

/** Both paths of a job, with the keys each tracked. */
async function bothPaths<T>(job: CellJob<T>) {
  const slowKeys: Array<[string, SeriesNeed | undefined]> = [];
  const slow = await job.compute({
    track: (key, need) => slowKeys.push([key, need]),
    stale: () => undefined,
  });
  const nowKeys: Array<[string, SeriesNeed | undefined]> = [];
  const now = job.computeNow?.((key, need) => nowKeys.push([key, need]));
  return { slow, slowKeys, now, nowKeys };
}

describe("the fast path of VALUE and VALUES", () => {
  test.each<[string, (engine: ReturnType<typeof harness>["engine"]) => CellJob<unknown>]>([
    [
      "VALUE of a month",
      (engine) => valueJob(engine, { code: CODE, date: "2026-03", currency: null, unit: null }),
    ],
    ["VALUE, latest", (engine) => valueJob(engine, { code: CODE, date: null, currency: null, unit: null })],
    ["VALUES of recent months", (engine) => valuesJob(engine, VALUES_ARGS, PLAIN_SERIAL_DATES)],
    [
      "INFO of a field",
      (engine) => infoJob(engine, { code: CODE, field: "Default Currency" }, PLAIN_SERIAL_DATES),
    ],
    ["INFO, whole record", (engine) => infoJob(engine, { code: CODE, field: null }, PLAIN_SERIAL_DATES)],
  ])("%s: the same result and keys as the asynchronous path, without a call", async (_case, makeJob) => {
    const h = harness();
    const job = makeJob(h.engine);
    const { slow, slowKeys, now, nowKeys } = await bothPaths(job);
    expect(now).toEqual(slow);
    expect(nowKeys).toEqual(slowKeys);
    expect(now).toBeDefined();
    const calls = h.service.dataCalls().length;
    job.computeNow?.(() => undefined);
    expect(h.service.dataCalls()).toHaveLength(calls);
  });

  test("a shared VALUES table is the same object on both paths", async () => {
    const h = harness();
    const { slow, now } = await bothPaths(valuesJob(h.engine, VALUES_ARGS, PLAIN_SERIAL_DATES));
    expect(now).toBe(slow);
  });

  test.each<[string, ValueArguments]>([
    [
      "a bad date (the slow path words the error)",
      { code: CODE, date: "someday", currency: null, unit: null },
    ],
    ["a month with no value", { code: CODE, date: "1990-01", currency: null, unit: null }],
    ["a series not cached", { code: "68520-8-2", date: null, currency: null, unit: null }],
  ])("VALUE declines %s", async (_case, args) => {
    const h = harness();
    await bothPaths(valueJob(h.engine, { code: CODE, date: null, currency: null, unit: null }));
    const job = valueJob(h.engine, args);
    // Declining is giving nothing or throwing (the cell then runs the asynchronous path).
    let value: unknown;
    try {
      value = job.computeNow?.(() => undefined);
    } catch {
      value = undefined;
    }
    expect(value).toBeUndefined();
  });

  test.each([
    ["a field the record does not have", { code: CODE, field: "price" }],
    ["a code not in the catalog", { code: "99999-9-9", field: null }],
  ])("INFO declines %s", async (_case, args) => {
    const h = harness();
    await h.engine.ready();
    await h.engine.lookup(CODE);
    const job = infoJob(h.engine, args, PLAIN_SERIAL_DATES);
    let value: unknown;
    try {
      value = job.computeNow?.(() => undefined);
    } catch {
      value = undefined;
    }
    expect(value).toBeUndefined();
  });
});
