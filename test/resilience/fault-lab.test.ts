// The fault lab's own promises, which every scenario relies on: its clock moves only to
// the engine's timers, a held call times out when that clock passes its timeout (and is
// then answered and charged late), and a wait that never ends fails with what it waited for.
import { CALL_TIMEOUT_MS, FaultLab, TIMEOUT_CAUSE } from "./support/fault-lab";
import { LabClock } from "./support/lab-clock";
import { START } from "./support/matrix";

jest.setTimeout(30_000);

let lab: FaultLab;

beforeAll(async () => {
  lab = await FaultLab.start(START);
});

afterAll(async () => {
  await lab?.close();
});

describe("LabClock", () => {
  test.each<[string, number[], number[], number]>([
    // what, timers set (ms from now), expected run order (by index), expected time moved
    ["moves to the earliest timer and runs it alone", [300, 100, 200], [1], 100],
    ["runs every timer due then, in the order they were set", [100, 300, 100], [0, 2], 100],
  ])("%s", (_, delays, ran, moved) => {
    const clock = new LabClock(1_000);
    const order: number[] = [];
    delays.forEach((ms, index) => clock.after(ms, () => order.push(index)));
    clock.step();
    expect(order).toEqual(ran);
    expect(clock.now()).toBe(1_000 + moved);
  });

  test("a cancelled timer never runs; timers due together run in the order set", () => {
    const clock = new LabClock(0);
    const order: string[] = [];
    clock.after(10, () => order.push("first"));
    const cancel = clock.after(10, () => order.push("cancelled"));
    clock.after(10, () => order.push("second"));
    cancel();
    clock.step();
    expect(order).toEqual(["first", "second"]);
    expect(clock.pendingTimers).toBe(0);
  });
});

test("a held call times out when the lab's clock passes its timeout; the service answers and charges it late", async () => {
  await lab.resetAll();
  const engine = await lab.signedInEngine();
  const [series] = await engine.catalog("energy_price");
  const request = await engine.resolve(series!.code, null, null);
  lab.hooks.hold = (call) => call.operation === "series_values";
  const before = lab.now();
  await expect(engine.getSeries(request)).rejects.toThrow(TIMEOUT_CAUSE);
  // The lab's time moved by the call timeout and nothing else (the answer never came).
  expect(lab.now() - before).toBe(CALL_TIMEOUT_MS);
  const held = lab.exchanges.filter((exchange) => exchange.operation === "series_values");
  expect(held.map((exchange) => [exchange.status, exchange.charged])).toEqual([[null, false]]);
  await lab.drain();
  // The service charged what the lab saw answered, and the held call's codes once more.
  const witnessed = [...lab.chargesPerCode().values()].reduce((total, n) => total + n, 0);
  const charged = Object.values((await lab.stats()).dataRequests).reduce((total, n) => total + n, 0);
  expect(charged).toBe(witnessed + held[0]!.codes.length);
});

test("a wait that never ends fails, naming what it waited for, and the scenario's check fails too", async () => {
  await lab.resetAll();
  await expect(lab.until(() => false, "an answer that never comes", 20)).rejects.toThrow(
    /waited 0\.02 s of real time for an answer that never comes/,
  );
  expect(() => lab.expectNoWaitFailed()).toThrow(/an answer that never comes/);
  await lab.resetAll();
  expect(() => lab.expectNoWaitFailed()).not.toThrow();
});
