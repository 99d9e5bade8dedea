// Sandbox and live never mix: the sandbox's dummy (negative) values must never show in a
// live cell, nor live values in a sandbox cell, whatever the order of switching, in memory
// or in storage, and signing out of one never serves the other's data.
import type { Engine } from "../../src/core/engine-api";
import { MemoryStorage } from "../../src/core/storage";
import { runWorkbook, type FormulaResult } from "../../src/headless";
import { FaultLab } from "../resilience/support/fault-lab";

const START = "2026-11-10T18:00:00Z";

let lab: FaultLab;

beforeAll(async () => {
  lab = await FaultLab.start(START);
});

afterAll(async () => {
  await lab?.close();
});

async function cells(engine: Engine, formulas: string[]): Promise<FormulaResult[]> {
  const report = await runWorkbook({ engine, formulas, timeoutMs: 30_000, log: () => undefined });
  expect(report.settled).toBe(true);
  return report.passes[0]!.results;
}

function numbers(results: FormulaResult[]): number[] {
  return results.flatMap((result) =>
    "value" in result && typeof result.value === "number" ? [result.value] : [],
  );
}

test("live, sandbox, live again (and a reopened workbook): each environment shows only its own data", async () => {
  const storage = new MemoryStorage();
  const engine = await lab.signedInEngine(storage);
  const series = (await engine.catalog("energy_price")).slice(0, 3);
  const formulas = series.map((info) => `=PCD.VALUE("${info.code}","2024-03")`);

  const live = numbers(await cells(engine, formulas));
  expect(live).toHaveLength(3);
  expect(live.every((value) => value > 0)).toBe(true);

  await engine.updateSettings({ environment: "sandbox" });
  await lab.resetAll();
  const sandbox = numbers(await cells(engine, formulas));
  expect(sandbox).toHaveLength(3);
  // The sandbox serves dummy negative values: a positive number here is live data leaking.
  expect(sandbox.every((value) => value < 0)).toBe(true);
  // ...fetched from the sandbox, not served from the live cache.
  const sandboxCalls = lab.exchanges.filter((exchange) => exchange.codes.length > 0);
  expect(sandboxCalls.length).toBeGreaterThan(0);
  expect(sandboxCalls.every((exchange) => exchange.url.includes("/v1/sandbox/export/"))).toBe(true);

  await engine.updateSettings({ environment: "live" });
  await lab.resetAll();
  expect(numbers(await cells(engine, formulas))).toEqual(live);
  expect(lab.exchanges.filter((exchange) => exchange.codes.length > 0)).toEqual([]);

  // Storage keeps the two apart: every cached entry is keyed by its environment.
  const dataKeys = (await storage.keys()).filter((key) => key.startsWith("pcd:data:"));
  expect(dataKeys.filter((key) => key.startsWith("pcd:data:live|"))).toHaveLength(3);
  expect(dataKeys.filter((key) => key.startsWith("pcd:data:sandbox|"))).toHaveLength(3);
  expect(dataKeys).toHaveLength(6);

  // A reopened workbook in the sandbox, offline: sandbox data from the cache, never live data.
  const reopened = lab.engine(storage);
  await reopened.ready();
  await reopened.updateSettings({ environment: "sandbox" });
  lab.hooks.unreachable = true;
  expect(numbers(await cells(reopened, formulas))).toEqual(sandbox);
  lab.hooks.unreachable = false;
});
