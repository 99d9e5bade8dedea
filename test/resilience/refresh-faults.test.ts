// The monthly "Refresh all" under faults: after a release (with revised series), a refresh
// meets failing and malformed answers. Every cached series must afterwards be either exactly
// what it was (its refresh failed) or exactly what a fault-free refresh produces (the
// oracle: a second engine on its own storage); the summary must count the failures, no code
// may be charged twice, and a second refresh once the fault clears completes the rest.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Engine, SeriesData, SeriesRequest } from "../../src/core/engine-api";
import { MemoryStorage } from "../../src/core/storage";
import { FaultLab, sum } from "./support/fault-lab";
import { DATA, faults, START } from "./support/matrix";

jest.setTimeout(60_000);

let lab: FaultLab;

beforeAll(async () => {
  lab = await FaultLab.start(START);
});

afterAll(async () => {
  await lab?.close();
});

/** What a cell sees of a series (fetch times and staleness aside). */
function content(data: SeriesData | undefined): unknown {
  if (!data) return undefined;
  const { finals, forecasts, currency, unit, updatedAt, lastFinal } = data;
  return { finals, forecasts, currency, unit, updatedAt, lastFinal };
}

async function loadAll(engine: Engine, codes: readonly string[]): Promise<SeriesRequest[]> {
  const requests = await Promise.all(codes.map((code) => engine.resolve(code, null, null)));
  await Promise.all(requests.map((request) => engine.getSeries(request)));
  return requests;
}

test("a refresh-all that meets 500s and malformed answers keeps or completes every series, never damages one", async () => {
  const subject = await lab.signedInEngine(new MemoryStorage());
  const oracle = await lab.signedInEngine(new MemoryStorage());
  const energy = (await subject.catalog("energy_price")).filter((info) => info.lag === 0).slice(0, 20);
  const commodity = (await subject.catalog("commodity_price")).filter((info) => info.lag === 0).slice(0, 20);
  const codes = [...energy, ...commodity].map((info) => info.code);
  const requests = await loadAll(subject, codes);
  await loadAll(oracle, codes);

  await lab.admin("release", { revise: [codes[0], codes[1], codes[25]], unchanged: [codes[2], codes[26]] });
  await lab.resetAll();
  const truth = await oracle.refreshAll();
  expect(truth).toMatchObject({ failed: 0, revised: 3 });
  const expected = new Map(requests.map((request) => [request.key, content(oracle.peek(request.key))]));
  const before = new Map(requests.map((request) => [request.key, content(subject.peek(request.key))]));

  await lab.resetAll();
  await faults(DATA, { mode: "malformed", rate: 0.5 })(lab);
  await faults(DATA, { mode: "status", status: 500, rate: 0.3 })(lab);
  const faulted = await subject.refreshAll();
  await lab.drain();
  const faultCharges = sum((await lab.stats()).dataRequests);
  expect(faulted.failed).toBeGreaterThan(0);
  expect(faulted.failures.every((failure) => /HTTP 500|not valid JSON/.test(failure.message))).toBe(true);
  const kept: string[] = [];
  const damaged: string[] = [];
  for (const { key } of requests) {
    const now = content(subject.peek(key));
    if (JSON.stringify(now) === JSON.stringify(expected.get(key))) continue;
    if (JSON.stringify(now) === JSON.stringify(before.get(key))) kept.push(key);
    else damaged.push(key);
  }
  expect(damaged).toEqual([]);
  expect(kept.length).toBe(faulted.failures.length);

  await lab.resetAll();
  const recovered = await subject.refreshAll();
  expect(recovered.failed).toBe(0);
  for (const { key } of requests) expect(content(subject.peek(key))).toEqual(expected.get(key));
  // Each series that needed data was paid for once over both refreshes, as the oracle paid.
  const recoveryCharges = sum((await lab.stats()).dataRequests);
  expect(faultCharges + recoveryCharges).toBe(truth.requestsUsed);
  const dir = process.env.PCD_RELIABILITY_DIR;
  if (dir) {
    const measured = {
      series: requests.length,
      oracleRequests: truth.requestsUsed,
      faultedFailed: faulted.failed,
      kept: kept.length,
      faultCharges,
      recoveryCharges,
    };
    writeFileSync(path.join(dir, "refresh-faults.json"), JSON.stringify(measured, null, 2));
  }
});
