import { RecordingInvocation } from "../../src/headless/invocation";

async function isSettled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 3; i += 1) await Promise.resolve();
  return done;
}

test("a runner waiting before the first result is released by it", async () => {
  const invocation = new RecordingInvocation();
  const waiting = invocation.settled();
  expect(await isSettled(waiting)).toBe(false);
  expect(invocation.hasResult).toBe(false);
  invocation.setResult(1);
  expect(await isSettled(waiting)).toBe(true);
});

test("a cell that answered at once is settled without waiting", async () => {
  const invocation = new RecordingInvocation();
  invocation.setResult([[1, 2]]);
  expect(await isSettled(invocation.settled())).toBe(true);
});

test("every result is counted and the latest is kept", () => {
  const invocation = new RecordingInvocation();
  invocation.setResult("#BUSY");
  invocation.setResult(42);
  expect(invocation.resultCount).toBe(2);
  expect(invocation.latest).toBe(42);
});

test("cancel reaches the cell's onCanceled, and does nothing without one", () => {
  const invocation = new RecordingInvocation();
  expect(() => invocation.cancel()).not.toThrow();
  const onCanceled = jest.fn();
  invocation.onCanceled = onCanceled;
  invocation.cancel();
  expect(onCanceled).toHaveBeenCalledTimes(1);
});
