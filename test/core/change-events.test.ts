import { ChangeEvents } from "../../src/core/change-events";

function manualTicks(): { defer: (run: () => void) => void; tick(): void } {
  const queue: Array<() => void> = [];
  return {
    defer: (run) => queue.push(run),
    tick: () => queue.splice(0).forEach((run) => run()),
  };
}

describe("ChangeEvents", () => {
  test("keys changed within one tick arrive as one set", () => {
    const ticks = manualTicks();
    const events = new ChangeEvents(undefined, ticks.defer);
    const received: string[][] = [];
    events.onChange((keys) => received.push([...keys]));
    events.changed("a");
    events.changed("b");
    events.changed("a");
    expect(received).toEqual([]);
    ticks.tick();
    events.changed("c");
    ticks.tick();
    expect(received).toEqual([["a", "b"], ["c"]]);
  });

  test("meta changes coalesce too, and unsubscribing stops delivery", () => {
    const ticks = manualTicks();
    const events = new ChangeEvents(undefined, ticks.defer);
    let count = 0;
    const stop = events.onMetaChange(() => count++);
    events.metaChanged();
    events.metaChanged();
    ticks.tick();
    stop();
    events.metaChanged();
    ticks.tick();
    expect(count).toBe(1);
  });

  test("a failing listener does not keep others from their update", () => {
    const ticks = manualTicks();
    const logs: string[] = [];
    const events = new ChangeEvents((_level, text) => logs.push(text), ticks.defer);
    const received: string[] = [];
    events.onChange(() => {
      throw new Error("listener bug");
    });
    events.onChange((keys) => received.push(...keys));
    events.changed("k");
    ticks.tick();
    expect(received).toEqual(["k"]);
    expect(logs[0]).toMatch(/listener bug/);
  });

  test("per-key listeners hear only their keys, once per delivery, until they unsubscribe", () => {
    const ticks = manualTicks();
    const events = new ChangeEvents(undefined, ticks.defer);
    const heard: string[] = [];
    const cellA = () => heard.push("cell A");
    const cellAB = () => heard.push("cell AB");
    events.onKeyChange("a", cellA);
    events.onKeyChange("a", cellAB);
    const stopB = events.onKeyChange("b", cellAB);
    events.onKeyChange("c", () => heard.push("cell C"));
    events.changed("a");
    events.changed("b");
    ticks.tick();
    expect(heard.sort()).toEqual(["cell A", "cell AB"]);
    heard.length = 0;
    stopB();
    events.changed("b");
    ticks.tick();
    expect(heard).toEqual([]);
  });

  test.each([
    ["a catalog change", (events: ChangeEvents) => events.metaChanged(), 1, 1],
    ["the allowances alone", (events: ChangeEvents) => events.limitsChanged(), 1, 0],
    [
      "both in one tick",
      (events: ChangeEvents) => {
        events.limitsChanged();
        events.metaChanged();
      },
      1,
      1,
    ],
  ])("%s: meta listeners %i, catalog listeners %i", (_name, change, metaCalls, catalogCalls) => {
    const ticks = manualTicks();
    const events = new ChangeEvents(undefined, ticks.defer);
    let meta = 0;
    let catalog = 0;
    events.onMetaChange(() => meta++);
    events.onCatalogChange(() => catalog++);
    change(events);
    ticks.tick();
    expect([meta, catalog]).toEqual([metaCalls, catalogCalls]);
  });
});
