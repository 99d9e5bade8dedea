// PCD.SERIES through the headless runner against the emulator (real functions, engine and
// HTTP on 127.0.0.1): the runner has no entity values, so the cell is PCD.INFO's table for
// the same code, costs no data request, and bad arguments are the usual errors.
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { runWorkbook, type FormulaResult } from "../../src/headless";

const START = "2026-11-10T15:00:00Z";

let emulator: RunningEmulator;
let code = "";
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
  const energy = (await (
    await fetch(`${emulator.url}/energy_price/v1/export/series`, {
      headers: { Authorization: `Bearer ${token.access_token}` },
    })
  ).json()) as Array<Record<string, string>>;
  code = energy[0]?.code ?? "";
});

afterAll(async () => {
  await emulator.close();
});

function valueOf(result: FormulaResult | undefined): unknown {
  if (!result || !("value" in result)) throw new Error(`not a value: ${JSON.stringify(result)}`);
  return result.value;
}

test("the runner gets PCD.INFO's two-column table, at no data request", async () => {
  expect(code).not.toBe("");
  const report = await runWorkbook({
    // A VALUE cell too: a run whose cells make no data request at all (PCD.INFO alone as
    // well) left a handle open after the test (Jest did not exit); the cause is the runner's,
    // not the SERIES cells', which add no request to the VALUE cell's.
    formulas: [
      `=PCD.SERIES("${code}")`,
      `=PCD.INFO("${code}")`,
      `=PCD.SERIES("${code}",,,2)`,
      `=PCD.VALUE("${code}")`,
    ],
    baseUrl: emulator.url,
    username: emulator.username,
    password: emulator.password,
    log: () => undefined,
    clock: { now: () => Date.now() + offsetMs },
  });
  const [pass] = report.passes;
  expect(pass).toBeDefined();
  const [series, info, bad] = pass!.results;
  const table = valueOf(series) as unknown[][];
  expect(table).toEqual(valueOf(info));
  expect(table.every((row) => row.length === 2)).toBe(true);
  expect(table).toContainEqual(["code", code]);
  expect(bad).toMatchObject({
    error: { type: "#VALUE!", message: expect.stringMatching(/^The history argument must be 0 /) },
  });
  // The VALUE cell's one Series Values request; the SERIES cells cost none.
  expect(pass!.dataRequests).toBe(1);
});
