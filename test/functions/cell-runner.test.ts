import { PcdError } from "../../src/core/errors";
import { runCell } from "../../src/functions/cell-runner";
import { installCustomFunctionsShim } from "../../src/headless/custom-functions-shim";
import { setEngine } from "../../src/host/shared-engine";
import { realEngine } from "./support/real-engine";

beforeAll(() => installCustomFunctionsShim());
// The computer's clock (jest's) reads noon; the engine's clock reads 08:30.
beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-15T12:00:00Z") }));
afterEach(() => {
  jest.useRealTimers();
  setEngine(undefined);
});

test("a cell's retry is timed on the engine's clock, not the computer's", async () => {
  const h = realEngine([{ info: { code: "1-1-1" }, finals: { "2026-10": 1 } }]);
  h.clock.now = Date.parse("2026-11-15T08:30:00Z");
  setEngine(h.engine);
  const invocation = {
    results: [] as unknown[],
    setResult(value: unknown) {
      this.results.push(value);
    },
    onCanceled: undefined as (() => void) | undefined,
  };
  runCell(invocation as unknown as CustomFunctions.StreamingInvocation<number>, () => ({
    watch: "data",
    compute: () => Promise.reject(new PcdError("network", "PCD could not be reached.")),
  }));
  for (let i = 0; i < 10 && invocation.results.length === 0; i += 1) await Promise.resolve();
  invocation.onCanceled?.();
  expect(invocation.results).toEqual([
    expect.objectContaining({ message: "PCD could not be reached. Will try again at 08:31 UTC." }),
  ]);
});
