import { RecordingInvocation } from "../../src/headless/invocation";
import { retainedBytes } from "../support/retained-bytes";

describe("RecordingInvocation", () => {
  test("records every result, reports the latest, and settles at the first", async () => {
    const invocation = new RecordingInvocation();
    let settled = false;
    void invocation.settled().then(() => (settled = true));
    await Promise.resolve();
    expect([invocation.hasResult, invocation.resultCount, settled]).toEqual([false, 0, false]);
    invocation.setResult(1);
    invocation.setResult([[2]]);
    await invocation.settled();
    expect([invocation.hasResult, invocation.resultCount, invocation.latest, settled]).toEqual([
      true,
      2,
      [[2]],
      true,
    ]);
  });

  test("settles at once when the result came before the runner waited (a cached cell)", async () => {
    const invocation = new RecordingInvocation();
    invocation.setResult("x");
    await expect(invocation.settled()).resolves.toBeUndefined();
  });

  test("cancel reaches the cell", () => {
    const invocation = new RecordingInvocation();
    const cancelled: string[] = [];
    invocation.onCanceled = () => cancelled.push("cell");
    invocation.cancel();
    expect(cancelled).toEqual(["cell"]);
  });

  test("a settled invocation keeps little more than its result (a pass holds one per formula)", async () => {
    const count = 10_000;
    const waiting = Array.from({ length: count }, () => new RecordingInvocation());
    const firsts = waiting.map((invocation) => invocation.settled());
    waiting.forEach((invocation, index) => invocation.setResult(index));
    await Promise.all(firsts);
    const bytes = retainedBytes(() => {
      const invocations = Array.from({ length: count }, () => new RecordingInvocation());
      for (const invocation of invocations) void invocation.settled();
      invocations.forEach((invocation, index) => invocation.setResult(index));
      return invocations;
    });
    // Its fields and a slot of the array; a function per invocation and a kept promise
    // with its resolver cost 250 bytes or more on top. (The margin is for test workers
    // whose heap differs with the files they ran before.)
    expect(bytes / count).toBeLessThan(200);
  });
});
