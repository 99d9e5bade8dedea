import { createRequestGate } from "../../../src/core/http/request-gate";
import type { PacingTimers } from "../../../src/core/scheduler";
import type { SendSlot } from "../../../src/core/service-client";

describe("createRequestGate", () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-18T15:00:00Z") }));
  afterEach(() => jest.useRealTimers());

  test("spaces the starts of one operation: never more than 10 in any second", async () => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
    const starts: number[] = [];
    const done = Promise.all(
      Array.from({ length: 25 }, () =>
        gate.run("series_values", async () => {
          starts.push(Date.now());
        }),
      ),
    );
    await jest.advanceTimersByTimeAsync(3_000);
    await done;
    expect(starts).toHaveLength(25);
    for (let i = 0; i + 10 < starts.length; i++) {
      expect((starts[i + 10] ?? 0) - (starts[i] ?? 0)).toBeGreaterThanOrEqual(1_000);
    }
  });

  test.each([
    ["queued together: 105 ms apart from the first", [0, 0, 0], [0, 105, 210]],
    ["the second comes after the spacing passed: at once", [0, 200], [0, 200]],
    ["the second comes 50 ms later: 55 ms after it came", [0, 50], [0, 105]],
  ])("spacing of one operation at 10 per second, %s", async (_name, queuedAt, expectedStarts) => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
    const t0 = Date.now();
    const starts: number[] = [];
    const done: Promise<void>[] = [];
    for (const at of queuedAt) {
      await jest.advanceTimersByTimeAsync(t0 + at - Date.now());
      done.push(gate.run("series_values", async () => void starts.push(Date.now() - t0)));
    }
    await jest.advanceTimersByTimeAsync(1_000);
    await Promise.all(done);
    expect(starts).toEqual(expectedStarts);
  });

  test("unpaced (a team gateway paces the service itself): only the gateway's in-flight cap holds, and pacing comes back when asked", async () => {
    let paced = false;
    const gate = createRequestGate({
      requestsPerSecond: 10,
      maxInFlight: 2,
      gatewayMaxInFlight: 3,
      paced: () => paced,
    });
    const t0 = Date.now();
    const starts: number[] = [];
    const release: Array<() => void> = [];
    const done = Array.from({ length: 6 }, () =>
      gate.run("series_values", () => {
        starts.push(Date.now() - t0);
        return new Promise<void>((resolve) => release.push(resolve));
      }),
    );
    await jest.advanceTimersByTimeAsync(0);
    // Three at once (the gateway's cap, not the service's 2), the next three as places free:
    // no 105 ms spacing.
    expect(starts).toEqual([0, 0, 0]);
    await jest.advanceTimersByTimeAsync(10);
    for (const free of release.splice(0)) free();
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([0, 0, 0, 10, 10, 10]);
    for (const free of release.splice(0)) free();
    await Promise.all(done);
    paced = true;
    const pacedStarts: number[] = [];
    const pacedDone = Array.from({ length: 3 }, () =>
      gate.run("series_values", async () => void pacedStarts.push(Date.now() - t0)),
    );
    await jest.advanceTimersByTimeAsync(1_000);
    await Promise.all(pacedDone);
    expect(pacedStarts).toEqual([10, 115, 220]);
  });

  test("calls reserved together, and one after, start in the order they came", async () => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 1 });
    const order: number[] = [];
    const done = [0, 1, 2].map((index) => gate.run("series_values", async () => void order.push(index)));
    await jest.advanceTimersByTimeAsync(0);
    done.push(gate.run("series_values", async () => void order.push(3)));
    await jest.advanceTimersByTimeAsync(1_000);
    await Promise.all(done);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  test("a slot is granted from a timer even without a wait: work queued in the same turn is there", async () => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
    let granted = false;
    const slot = gate.reserve("series_values").then((reserved) => {
      granted = true;
      return reserved;
    });
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    expect(granted).toBe(false);
    await jest.advanceTimersByTimeAsync(0);
    expect(granted).toBe(true);
    (await slot).release();
  });

  test("an attempt that throws before returning a promise rejects and frees its place", async () => {
    const gate = createRequestGate({ requestsPerSecond: 1000, maxInFlight: 1 });
    const thrown = expect(
      gate.run("series_info", () => {
        throw new Error("at once");
      }),
    ).rejects.toThrow("at once");
    const next = gate.run("series_info", async () => "next");
    await jest.advanceTimersByTimeAsync(50);
    await thrown;
    await expect(next).resolves.toBe("next");
  });

  test("operations are limited separately", async () => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
    const started: string[] = [];
    const run = (operation: "series_values" | "series_info") =>
      gate.run(operation, async () => {
        started.push(operation);
      });
    const done = Promise.all([run("series_values"), run("series_values"), run("series_info")]);
    await jest.advanceTimersByTimeAsync(50);
    // The second Series Values call waits for its 100 ms slot; Series Info does not.
    expect(started.sort()).toEqual(["series_info", "series_values"]);
    await jest.advanceTimersByTimeAsync(100);
    await done;
    expect(started).toHaveLength(3);
  });

  test("caps the calls in flight across operations", async () => {
    const gate = createRequestGate({ requestsPerSecond: 1000, maxInFlight: 2 });
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const operations = [
      "series_values",
      "series_hist",
      "series_info",
      "data_limits",
      "series_values",
    ] as const;
    const done = Promise.all(
      operations.map((operation) =>
        gate.run(operation, async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise<void>((resolve) => releases.push(resolve));
          running--;
        }),
      ),
    );
    await jest.advanceTimersByTimeAsync(50);
    expect(running).toBe(2);
    releases.shift()?.();
    await jest.advanceTimersByTimeAsync(50);
    expect(running).toBe(2);
    while (releases.length > 0 || running > 0) {
      releases.shift()?.();
      await jest.advanceTimersByTimeAsync(50);
    }
    await done;
    expect(peak).toBe(2);
  });

  test("passes results and errors through", async () => {
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 1 });
    const ok = gate.run("series_info", async () => 42);
    const failed = expect(
      gate.run("series_info", async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    await jest.advanceTimersByTimeAsync(500);
    await expect(ok).resolves.toBe(42);
    await failed;
  });

  test.each([
    [{ requestsPerSecond: 0, maxInFlight: 6 }, /requestsPerSecond/],
    [{ requestsPerSecond: 10, maxInFlight: 0 }, /maxInFlight/],
    [{ requestsPerSecond: 10, maxInFlight: 1.5 }, /maxInFlight/],
    [{ requestsPerSecond: 10, maxInFlight: 6, gatewayMaxInFlight: 0 }, /gatewayMaxInFlight/],
    [{ requestsPerSecond: 10, maxInFlight: 6, gatewayMaxInFlight: 2.5 }, /gatewayMaxInFlight/],
  ])("rejects %o", (options, message) => {
    expect(() => createRequestGate(options)).toThrow(message);
  });

  describe("reserve: a slot granted first, the request chosen then", () => {
    /** The gate grants through timers, which are fake here. */
    async function reserved(gate: ReturnType<typeof createRequestGate>): Promise<SendSlot> {
      const slot = gate.reserve("series_values");
      await jest.advanceTimersByTimeAsync(10);
      return slot;
    }

    test("slots of one operation are granted with the same spacing as run", async () => {
      const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
      const granted: number[] = [];
      const slots = Array.from({ length: 3 }, () =>
        gate.reserve("series_hist").then((slot) => {
          granted.push(Date.now());
          return slot.run(async () => "sent");
        }),
      );
      await jest.advanceTimersByTimeAsync(1_000);
      await expect(Promise.all(slots)).resolves.toEqual(["sent", "sent", "sent"]);
      expect(granted[1]! - granted[0]!).toBeGreaterThanOrEqual(100);
      expect(granted[2]! - granted[1]!).toBeGreaterThanOrEqual(100);
    });

    test("a slot holds its place in flight until it is run or released", async () => {
      const gate = createRequestGate({ requestsPerSecond: 1000, maxInFlight: 1 });
      const slot = await reserved(gate);
      let ran = false;
      const next = gate.run("series_info", async () => {
        ran = true;
      });
      await jest.advanceTimersByTimeAsync(100);
      expect(ran).toBe(false);
      slot.release();
      slot.release(); // a second release frees nothing more
      await jest.advanceTimersByTimeAsync(100);
      await next;
      expect(ran).toBe(true);
    });

    test("a request that leaves late does not let the next ones crowd the second", async () => {
      const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 });
      const starts: number[] = [];
      const slots = Array.from({ length: 11 }, () => gate.reserve("series_values"));
      const sent = slots.map(async (reserving, i) => {
        const slot = await reserving;
        // The first slot is granted at once but its request leaves 950 ms later (a busy
        // event loop); the others leave as soon as they are granted, 105 ms apart.
        if (i === 0) await new Promise((resume) => setTimeout(resume, 950));
        await slot.run(async () => {
          starts.push(Date.now());
        });
      });
      await jest.advanceTimersByTimeAsync(3_000);
      await Promise.all(sent);
      starts.sort((a, b) => a - b);
      expect(starts).toHaveLength(11);
      expect(starts[10]! - starts[0]!).toBeGreaterThanOrEqual(1_050);
    });

    test("a slot runs one request only", async () => {
      const gate = createRequestGate({ requestsPerSecond: 1000, maxInFlight: 2 });
      const slot = await reserved(gate);
      await expect(slot.run(async () => 1)).resolves.toBe(1);
      await expect(slot.run(async () => 2)).rejects.toThrow("one request only");
    });
  });
});

describe("createRequestGate with the timers it is given", () => {
  /** Timers that fire only when the test says: what the gate waits for, and when. */
  class HeldPacing implements PacingTimers {
    time = Date.parse("2026-11-18T15:00:00Z");
    readonly waits: number[] = [];
    private readonly due: Array<{ at: number; run: () => void }> = [];
    now = (): number => this.time;
    after = (ms: number, run: () => void): (() => void) => {
      this.waits.push(ms);
      const timer = { at: this.time + ms, run };
      this.due.push(timer);
      return () => this.due.splice(this.due.indexOf(timer), 1);
    };
    /** Moves the time to the next timer and runs it; false when none is set. */
    async fireNext(): Promise<boolean> {
      this.due.sort((a, b) => a.at - b.at);
      const next = this.due.shift();
      if (next === undefined) return false;
      this.time = Math.max(this.time, next.at);
      next.run();
      for (let turn = 0; turn < 10; turn++) await Promise.resolve();
      return true;
    }
  }

  test.each([
    [
      "paced: each turn 105 ms after the one before",
      true,
      12,
      [0, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105, 105],
    ],
    ["through a team gateway: a zero-delay grant each", false, 3, [0, 0, 0]],
  ])("%s goes through the given timers, none through the real ones", async (_name, paced, calls, waits) => {
    const pacing = new HeldPacing();
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50, paced: () => paced }, pacing);
    const realTimer = jest.spyOn(globalThis, "setTimeout");
    const starts: number[] = [];
    const done = Array.from({ length: calls }, () =>
      gate.run("series_values", async () => void starts.push(pacing.now())),
    );
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
    while (await pacing.fireNext());
    await Promise.all(done);
    expect(realTimer).not.toHaveBeenCalled();
    realTimer.mockRestore();
    expect(pacing.waits).toEqual(waits);
    expect(starts).toHaveLength(calls);
  });

  test("a turn whose timer fired late does not push the next one back: turns keep their plan", async () => {
    const pacing = new HeldPacing();
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 50 }, pacing);
    const starts: number[] = [];
    const t0 = pacing.now();
    const done = Array.from({ length: 3 }, () =>
      gate.run("series_values", async () => void starts.push(pacing.now() - t0)),
    );
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
    await pacing.fireNext();
    // The second turn's timer (planned at 105 ms) fires 20 ms late.
    pacing.time = t0 + 125;
    await pacing.fireNext();
    while (await pacing.fireNext());
    await Promise.all(done);
    expect(pacing.waits).toEqual([0, 105, 85]);
    expect(starts).toEqual([0, 125, 210]);
  });

  test.each([
    ["paced", true],
    ["through a team gateway", false],
  ])("%s: a wait whose timer cannot be set fails its call, and the next call goes", async (_name, paced) => {
    const pacing = new HeldPacing();
    const setTimer = pacing.after;
    let broken = true;
    pacing.after = (ms, run) => {
      if (broken) {
        broken = false;
        throw new Error("no timer");
      }
      return setTimer(ms, run);
    };
    const gate = createRequestGate({ requestsPerSecond: 10, maxInFlight: 1, paced: () => paced }, pacing);
    const first = gate.run("series_values", async () => "first");
    await expect(first).rejects.toThrow("no timer");
    const second = gate.run("series_values", async () => "second");
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
    while (await pacing.fireNext());
    await expect(second).resolves.toBe("second");
  });
});
