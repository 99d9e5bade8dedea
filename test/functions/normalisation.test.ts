// A function's arguments are normalised by the real engine: currency and unit names in any
// case and spacing, a code with spaces around it. The last test breaks that normalisation
// (a case-sensitive lookup, as the retired fake engine had) and shows these tests notice.
import * as reference from "../../src/core/reference";
import { value } from "../../src/functions/functions";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { setEngine } from "../../src/host/shared-engine";
import { realEngine, type RealEngine } from "./support/real-engine";

let h: RealEngine;
const cancels: Array<() => void> = [];

beforeAll(() => installCustomFunctionsShim());
beforeEach(() => {
  h = realEngine([
    {
      info: { code: "68520-8-1", availableCurrencies: ["EUR", "USD"], availableUnits: ["MWh", "kWh"] },
      finals: { "2026-09": 31, "2026-10": 32 },
    },
  ]);
  setEngine(h.engine);
});
afterEach(() => {
  for (const cancel of cancels.splice(0)) cancel();
  jest.restoreAllMocks();
});
afterAll(() => setEngine(undefined));

/** The cell's latest result once the engine is at rest: a number, or the error's type and message. */
async function cell(code: string, currency: string | null, unit: string | null): Promise<unknown> {
  const results: unknown[] = [];
  const invocation = { setResult: (result: unknown) => results.push(result) } as {
    setResult(result: unknown): void;
    onCanceled?: () => void;
  };
  value(code, null, currency, unit, invocation as unknown as CustomFunctions.StreamingInvocation<unknown>);
  cancels.push(() => invocation.onCanceled?.());
  for (let round = 0; round < 3; round += 1) {
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 2));
    await h.engine.idle();
    h.tick();
  }
  const result = results.at(-1);
  return result instanceof CustomFunctions.Error ? { type: result.code, message: result.message } : result;
}

test.each<[string, string, string | null, string | null]>([
  ["lower-case currency", "68520-8-1", "usd", null],
  ["mixed-case currency with spaces", "68520-8-1", " Usd ", null],
  ["upper-case unit", "68520-8-1", "USD", "KWH"],
  ["lower-case unit", "68520-8-1", "USD", "kwh"],
  ["a code with spaces around it", " 68520-8-1 ", "USD", "kWh"],
])("%s reads as the canonical spelling, on one request", async (_case, code, currency, unit) => {
  const canonical = await cell("68520-8-1", "USD", unit === null ? null : "kWh");
  expect(typeof canonical).toBe("number");
  expect(await cell(code, currency, unit)).toBe(canonical);
  // Both cells share one cached series: one code was sent for them.
  expect(h.service.codesSent()).toBe(1);
});

test("spelling out the defaults in any case shares the default request", async () => {
  expect(await cell("68520-8-1", "eur", "mwh")).toBe(32);
  expect(await cell("68520-8-1", null, null)).toBe(32);
  expect(h.service.codesSent()).toBe(1);
});

test("a case-sensitive reference lookup (a broken normalisation) fails these tests", async () => {
  const find = reference.findReference;
  jest
    .spyOn(reference, "findReference")
    .mockImplementation((table, input) =>
      typeof input === "string" ? table.find((entry) => entry.shortName === input) : find(table, input),
    );
  expect(await cell("68520-8-1", "usd", null)).toEqual({
    type: "#VALUE!",
    message: expect.stringMatching(/^Currency 'usd'/),
  });
});
