import { RunDeadline } from "../../src/headless/deadline";
import { HeldTimers } from "../support/held-timers";

describe("RunDeadline", () => {
  test.each([
    ["work that ends before the deadline gives its value", "work first", { done: true, value: "answer" }],
    ["a deadline that passes first ends the wait without the value", "deadline first", { done: false }],
  ] as const)("%s", async (_case, order, outcome) => {
    const timers = new HeldTimers();
    const deadline = new RunDeadline(1_000, timers);
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const raced = deadline.race(work);
    if (order === "work first") finish("answer");
    else timers.fire();
    await expect(raced).resolves.toEqual(outcome);
  });

  test("one timer serves every phase; once passed, a later phase ends at once", async () => {
    const timers = new HeldTimers();
    const deadline = new RunDeadline(5_000, timers);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5_000]);
    await expect(deadline.race(Promise.resolve(1))).resolves.toEqual({ done: true, value: 1 });
    timers.fire();
    await expect(deadline.race(new Promise<never>(() => undefined))).resolves.toEqual({ done: false });
    expect(timers.set).toBe(1);
  });

  test("a negative remaining time is a deadline already due; cancel() removes the timer", () => {
    const timers = new HeldTimers();
    const deadline = new RunDeadline(-20, timers);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([0]);
    deadline.cancel();
    expect(timers.pending).toEqual([]);
  });
});
