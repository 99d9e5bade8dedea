// Every PCD formula the README shows (a line starting "=PCD."), evaluated as written by the
// headless runner (the real functions and engine) against the emulator: each gives a value,
// not an error. The emulator's clock and the engine's are pinned to one quiet day, so the
// months the examples name are finals or forecasts the emulator has on that day.
import { readFileSync } from "node:fs";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { runWorkbook, type FormulaResult } from "../../src/headless";

jest.setTimeout(120_000);

const README = path.join(__dirname, "..", "..", "README.md");
/** A Tuesday after November's release day, away from maintenance days. */
const QUIET_DAY = "2026-11-10T15:00:00Z";

/** The README's example formulas: each line's formula, without the explanation beside it. */
function readmeFormulas(): string[] {
  const formulas = readFileSync(README, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("=PCD."))
    .map((line) => line.split(/\s{2,}/)[0] ?? "");
  return [...new Set(formulas)];
}

let emulator: RunningEmulator;
let results: FormulaResult[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, now: QUIET_DAY, port: 0, host: "127.0.0.1" });
  const report = await runWorkbook({
    formulas: readmeFormulas(),
    baseUrl: emulator.url,
    username: emulator.username,
    password: emulator.password,
    clock: { now: () => Date.parse(QUIET_DAY) },
    log: () => undefined,
    timeoutMs: 60_000,
  });
  results = report.passes.at(-1)?.results ?? [];
});

afterAll(async () => {
  await emulator?.close();
});

test("the README shows PCD formulas, each of every function it names", () => {
  const formulas = readmeFormulas();
  expect(formulas.length).toBeGreaterThanOrEqual(10);
  expect(results.map((result) => result.formula)).toEqual(formulas);
});

test.each(readmeFormulas())("%s gives a value against the emulator", (formula) => {
  const result = results.find((row) => row.formula === formula);
  expect(result).toBeDefined();
  expect(result && "error" in result ? `${result.error.type} ${result.error.message}` : "a value").toBe(
    "a value",
  );
});
