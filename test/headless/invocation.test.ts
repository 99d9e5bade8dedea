import { RecordingInvocation } from "../../src/headless/invocation";

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
});
