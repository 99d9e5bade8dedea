// One VALUE cell run to rest on the real engine with one series in two currencies and two
// units: what the normalisation tests read (test/functions/normalisation*.test.ts).
import { value } from "../../../src/functions/functions";
import { installCustomFunctionsShim } from "../../../src/headless/custom-functions-shim";
import { setEngine } from "../../../src/host/shared-engine";
import { realEngine, type RealEngine } from "./real-engine";

export interface NormalisationBench {
  engine(): RealEngine;
  /** The cell's latest result once the engine is at rest: a number, or the error's type and message. */
  cell(code: string, currency: string | null, unit: string | null): Promise<unknown>;
}

/** Registers the file's hooks: a fresh engine per test, every cell cancelled after it. */
export function normalisationBench(): NormalisationBench {
  let h: RealEngine | undefined;
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
  });
  afterAll(() => setEngine(undefined));

  const engine = (): RealEngine => {
    if (h === undefined) throw new Error("the engine exists only inside a test");
    return h;
  };
  return {
    engine,
    async cell(code, currency, unit) {
      const bench = engine();
      const results: unknown[] = [];
      const invocation = { setResult: (result: unknown) => results.push(result) } as {
        setResult(result: unknown): void;
        onCanceled?: () => void;
      };
      value(
        code,
        null,
        currency,
        unit,
        invocation as unknown as CustomFunctions.StreamingInvocation<unknown>,
      );
      cancels.push(() => invocation.onCanceled?.());
      for (let round = 0; round < 3; round += 1) {
        for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, 2));
        await bench.engine.idle();
        bench.tick();
      }
      const result = results.at(-1);
      return result instanceof CustomFunctions.Error
        ? { type: result.code, message: result.message }
        : result;
    },
  };
}
