// The toolkit functions through the headless runner against the emulator (real functions,
// real engine, real HTTP on 127.0.0.1): each cell's result agrees with the VALUES table of
// the same key, and the toolkit cells cost nothing beyond what that table needs.
import { locationFactorBase } from "../../src/core/location-factor-base";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { runWorkbook, type FormulaResult } from "../../src/headless";

const START = "2026-11-10T15:00:00Z";

let emulator: RunningEmulator;
let code = "";
let factors: string[] = [];
/** The engine's clock follows the emulator's (which starts at START and then runs). */
let offsetMs = 0;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, now: START, port: 0, host: "127.0.0.1" });
  offsetMs = Date.parse(START) - Date.now();
  const token = (await (
    await fetch(`${emulator.url}/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: emulator.username, password: emulator.password }),
    })
  ).json()) as { access_token: string };
  const read = async (product: string): Promise<Array<Record<string, string>>> =>
    (await (
      await fetch(`${emulator.url}/${product}/v1/export/series`, {
        headers: { Authorization: `Bearer ${token.access_token}` },
      })
    ).json()) as Array<Record<string, string>>;
  const energy = await read("energy_price");
  code = energy.find((record) => (record.last_available_final ?? "") >= "2026-09")?.code ?? "";
  const industry = await read("industry_economics");
  // Two factors on one base (RELOCATE refuses factors on different bases).
  const withBase = industry
    .filter((record) => /location factor/i.test(`${record.commodity} ${record.assessment}`))
    .filter((record) => (record.last_available_final ?? "") >= "2026-09")
    .map((record) => ({
      code: record.code ?? "",
      base: locationFactorBase({
        assessment: record.assessment ?? "",
        specification: record.specification ?? null,
        location: record.location ?? "",
      })?.base,
    }));
  const base = withBase[0]?.base;
  factors = withBase
    .filter((factor) => base !== undefined && factor.base === base)
    .slice(0, 2)
    .map((factor) => factor.code);
});

afterAll(async () => {
  await emulator.close();
});

function numberOf(result: FormulaResult | undefined): number {
  if (!result || !("value" in result) || typeof result.value !== "number") {
    throw new Error(`not a number: ${JSON.stringify(result)}`);
  }
  return result.value;
}

test("ESCALATE, CHANGE, AVERAGE and RELOCATE agree with the series' own values, at the cost of its table", async () => {
  expect(code).not.toBe("");
  expect(factors).toHaveLength(2);
  const [from, to] = factors;
  const formulas = [
    `=PCD.VALUES("${code}",,,"2026-01","2026-06",0,0)`,
    `=PCD.ESCALATE(1000,"${code}","2026-01","2026-06")`,
    `=PCD.CHANGE("${code}","2026-01","2026-06")`,
    `=PCD.AVERAGE("${code}","2026-01","2026-06")`,
    `=PCD.VALUES("${code}",,,"2026-01","2026-06",0,0,0,"Q")`,
    `=PCD.RELOCATE(1000000,"${from}","${to}")`,
    `=PCD.RELOCATE(1000000,"${from}","${from}")`,
  ];
  const report = await runWorkbook({
    formulas,
    baseUrl: emulator.url,
    username: emulator.username,
    password: emulator.password,
    log: () => undefined,
    clock: { now: () => Date.now() + offsetMs },
  });
  const [pass] = report.passes;
  expect(pass).toBeDefined();
  const results = pass!.results;
  const table = (results[0] && "value" in results[0] ? results[0].value : []) as unknown[][];
  const values = table.map((row) => Number(row[1]));
  expect(values).toHaveLength(6);
  const first = values[0]!;
  const last = values[5]!;
  expect(numberOf(results[1])).toBeCloseTo((1000 * last) / first, 9);
  expect(numberOf(results[2])).toBeCloseTo(last / first - 1, 12);
  expect(numberOf(results[3])).toBeCloseTo(values.reduce((sum, value) => sum + value, 0) / 6, 9);
  const quarters = (results[4] && "value" in results[4] ? results[4].value : []) as unknown[][];
  expect(quarters.map((row) => Number(row[1]))).toEqual([
    expect.closeTo((values[0]! + values[1]! + values[2]!) / 3, 9),
    expect.closeTo((values[3]! + values[4]! + values[5]!) / 3, 9),
  ]);
  expect(numberOf(results[5])).toBeGreaterThan(0);
  expect(numberOf(results[6])).toBeCloseTo(1_000_000, 6);
  // The energy key's months are all in the Series Values window: one request for its five
  // cells; each location factor one more.
  expect(pass!.dataRequests).toBe(3);
});
