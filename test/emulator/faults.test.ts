import { FaultInjector, type FaultSpec } from "../../src/emulator/faults";

const spec = (overrides: Partial<FaultSpec>): FaultSpec => ({
  operation: "*",
  mode: "status",
  status: 503,
  rate: 1,
  latencyMs: 0,
  count: undefined,
  ...overrides,
});

test("count limits how often a fault fires; operation filters", () => {
  const faults = new FaultInjector(1);
  faults.add(spec({ operation: "series_values", count: 2 }));
  expect(faults.onRequest("series_info").terminal).toBeUndefined();
  expect(faults.onRequest("series_values").terminal?.status).toBe(503);
  expect(faults.onRequest("series_values").terminal?.status).toBe(503);
  expect(faults.onRequest("series_values").terminal).toBeUndefined();
  expect(faults.active()).toEqual([]);
});

test("latencies add up and combine with one terminal fault", () => {
  const faults = new FaultInjector(1);
  faults.add(spec({ mode: "latency", latencyMs: 100 }));
  faults.add(spec({ mode: "latency", latencyMs: 50 }));
  faults.add(spec({ mode: "drop" }));
  faults.add(spec({ mode: "malformed" }));
  const outcome = faults.onRequest("data_limits");
  expect(outcome.delayMs).toBe(150);
  expect(outcome.terminal?.mode).toBe("drop");
});

test("rate is a probability from a seeded generator: the same seed repeats", () => {
  const run = (seed: number): boolean[] => {
    const faults = new FaultInjector(seed);
    faults.add(spec({ rate: 0.3 }));
    return Array.from({ length: 200 }, () => faults.onRequest("series_info").terminal !== undefined);
  };
  const fired = run(5).filter(Boolean).length;
  expect(fired).toBeGreaterThan(30);
  expect(fired).toBeLessThan(90);
  expect(run(5)).toEqual(run(5));
});

test("clear removes every fault", () => {
  const faults = new FaultInjector(1);
  faults.add(spec({}));
  faults.clear();
  expect(faults.onRequest("access_token").terminal).toBeUndefined();
});
