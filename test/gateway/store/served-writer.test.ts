import { ServedWriter } from "../../../src/gateway/store/served-writer";
import type { ServedAnswer } from "../../../src/gateway/store/gateway-store";

const row = (code: string): ServedAnswer => ({
  at: new Date("2026-11-10T15:00:00Z"),
  member: "ann@example.com",
  product: "energy_price",
  operation: "series_values",
  code,
  dataset: "Oil",
  source: "cache",
});

/** An audit whose writes are held until the test releases (or fails) them, one at a time. */
function heldAudit() {
  const writes: Array<{ codes: string[]; release: () => void; fail: () => void }> = [];
  return {
    writes,
    recordServed: (answers: readonly ServedAnswer[]) =>
      new Promise<void>((resolve, reject) => {
        writes.push({
          codes: answers.map((answer) => answer.code),
          release: resolve,
          fail: () => reject(new Error("the database is gone")),
        });
      }),
  };
}

/** Every promise reaction queued so far has run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("rows that come while a write is under way go together in the next write", async () => {
  const audit = heldAudit();
  const writer = new ServedWriter(audit, () => undefined);
  writer.record([row("a")]);
  writer.record([row("b")]);
  writer.record([row("c"), row("d")]);
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"]]);
  audit.writes[0]?.release();
  await settled();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"], ["b", "c", "d"]]);
  const flushed = writer.flushed();
  audit.writes[1]?.release();
  await flushed;
  expect(audit.writes).toHaveLength(2);
});

test("flushed waits for every pending row, including rows recorded during the wait", async () => {
  const audit = heldAudit();
  const writer = new ServedWriter(audit, () => undefined);
  writer.record([row("a")]);
  let done = false;
  const flushed = writer.flushed().then(() => (done = true));
  writer.record([row("b")]);
  audit.writes[0]?.release();
  await settled();
  expect(done).toBe(false);
  audit.writes[1]?.release();
  await flushed;
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"], ["b"]]);
});

test("a failed write is counted with its rows; later rows are still written", async () => {
  const audit = heldAudit();
  const lost: number[] = [];
  const writer = new ServedWriter(audit, (rows) => lost.push(rows));
  writer.record([row("a"), row("b")]);
  audit.writes[0]?.fail();
  await writer.flushed();
  expect(lost).toEqual([2]);
  writer.record([row("c")]);
  audit.writes[1]?.release();
  await writer.flushed();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a", "b"], ["c"]]);
  expect(lost).toEqual([2]);
});

test("nothing recorded: nothing written, and flushed settles at once", async () => {
  const audit = heldAudit();
  const writer = new ServedWriter(audit, () => undefined);
  writer.record([]);
  await writer.flushed();
  expect(audit.writes).toHaveLength(0);
});
