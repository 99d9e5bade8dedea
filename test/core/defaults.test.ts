// The tuning values: one table of defaults, checked when an engine is built.
import { ENGINE_DEFAULTS, resolveTuning, type EngineTuning } from "../../src/core/defaults";
import { createEngine } from "../../src/core/engine";
import { MemoryStorage } from "../../src/core/storage";

test("without changes the defaults are what the service's limits call for", () => {
  expect(resolveTuning()).toEqual(ENGINE_DEFAULTS);
  expect(ENGINE_DEFAULTS.requestsPerSecond).toBe(10);
  expect(Object.isFrozen(ENGINE_DEFAULTS)).toBe(true);
});

test.each([
  [
    "batchWindowMs",
    -1,
    "The engine option batchWindowMs must be a number of milliseconds (0 or more); got -1.",
  ],
  [
    "batchWindowMs",
    Number.NaN,
    "The engine option batchWindowMs must be a number of milliseconds (0 or more); got NaN.",
  ],
  ["maxInFlight", 0, "The engine option maxInFlight must be a whole number of at least 1; got 0."],
  ["maxInFlight", 2.5, "The engine option maxInFlight must be a whole number of at least 1; got 2.5."],
  [
    "gatewayMaxInFlight",
    0,
    "The engine option gatewayMaxInFlight must be a whole number of at least 1; got 0.",
  ],
  [
    "requestsPerSecond",
    0,
    "The engine option requestsPerSecond must be a whole number of at least 1; got 0.",
  ],
  ["searchLimit", "50", "The engine option searchLimit must be a whole number of at least 1; got 50."],
  [
    "batchMaxWaitMs",
    10,
    "The engine option batchMaxWaitMs (10) must not be shorter than batchWindowMs (20).",
  ],
  ["constructor", 1, 'Unknown engine option "constructor".'],
])("%s = %p is refused: %s", (name, value, message) => {
  expect(() => resolveTuning({ [name]: value } as unknown as Partial<EngineTuning>)).toThrow(message);
});

test("a valid change is kept and the rest stay default", () => {
  expect(resolveTuning({ maxInFlight: 2, batchWindowMs: 0 })).toEqual({
    ...ENGINE_DEFAULTS,
    maxInFlight: 2,
    batchWindowMs: 0,
  });
});

test("a bad tuning value fails when the engine is built, not at the first cell", () => {
  const env = {
    fetch: () => Promise.reject(new Error("no network in this test")),
    storage: new MemoryStorage(),
    clock: { now: () => Date.UTC(2026, 10, 10, 16) },
  };
  expect(() => createEngine(env, { tuning: { maxInFlight: 0 } })).toThrow(
    "The engine option maxInFlight must be a whole number of at least 1; got 0.",
  );
  expect(() => createEngine(env, { batchWindowMs: -5 })).toThrow("batchWindowMs");
  expect(createEngine(env, { tuning: { maxInFlight: 2 } })).toBeDefined();
});
