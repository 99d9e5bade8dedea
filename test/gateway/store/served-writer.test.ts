import {
  SERVED_MAX_ROWS,
  SERVED_MAX_WAIT_MS,
  SERVED_QUIET_MS,
  ServedWriter,
} from "../../../src/gateway/store/served-writer";
import { manualPackingTimers } from "../support/manual-packing-timers";
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

function writerOver(audit: ReturnType<typeof heldAudit>, lost: (rows: number) => void = () => undefined) {
  const timers = manualPackingTimers(0);
  const writer = new ServedWriter(audit, lost, { later: timers.later, elapsed: timers.now });
  return { writer, timers };
}

test("rows wait until no answer has come for a quiet moment, then go in one write", async () => {
  const audit = heldAudit();
  const { writer, timers } = writerOver(audit);
  writer.record([row("a")]);
  timers.advance(SERVED_QUIET_MS - 1);
  writer.record([row("b"), row("c")]);
  timers.advance(SERVED_QUIET_MS - 1);
  await settled();
  expect(audit.writes).toHaveLength(0);
  timers.advance(1);
  await settled();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a", "b", "c"]]);
  audit.writes[0]?.release();
  await writer.flushed();
  expect(audit.writes).toHaveLength(1);
});

test("answers that never stop coming: their rows are written once the first has waited its longest", async () => {
  const audit = heldAudit();
  const { writer, timers } = writerOver(audit);
  const step = SERVED_QUIET_MS - 5;
  let sent = 0;
  for (let at = 0; at < SERVED_MAX_WAIT_MS; at += step) {
    writer.record([row(`r${(sent += 1)}`)]);
    timers.advance(step);
  }
  await settled();
  expect(audit.writes).toHaveLength(1);
  // The write left at the longest wait, with every row that came before it.
  expect(audit.writes[0]?.codes).toHaveLength(Math.ceil(SERVED_MAX_WAIT_MS / step));
});

test("rows are written as soon as a write's worth wait, a write's worth at a time", async () => {
  const audit = heldAudit();
  const { writer } = writerOver(audit);
  writer.record(Array.from({ length: SERVED_MAX_ROWS - 1 }, (_, index) => row(`r${index}`)));
  await settled();
  expect(audit.writes).toHaveLength(0);
  writer.record([row("last")]);
  await settled();
  expect(audit.writes.map((write) => write.codes.length)).toEqual([SERVED_MAX_ROWS]);
  // Rows that come during that write, half as many again twice over: a write's worth as it ends.
  const half = SERVED_MAX_ROWS / 2;
  writer.record(Array.from({ length: SERVED_MAX_ROWS + half }, (_, index) => row(`s${index}`)));
  audit.writes[0]?.release();
  await settled();
  expect(audit.writes.map((write) => write.codes.length)).toEqual([SERVED_MAX_ROWS, SERVED_MAX_ROWS]);
  // The rest are written as the gateway closes.
  const flushed = writer.flushed();
  audit.writes[1]?.release();
  await settled();
  audit.writes[2]?.release();
  await flushed;
  expect(audit.writes.map((write) => write.codes.length)).toEqual([SERVED_MAX_ROWS, SERVED_MAX_ROWS, half]);
});

test("rows that come while a write is under way wait for their own quiet moment and go together", async () => {
  const audit = heldAudit();
  const { writer, timers } = writerOver(audit);
  writer.record([row("a")]);
  timers.advance(SERVED_QUIET_MS);
  await settled();
  writer.record([row("b")]);
  writer.record([row("c"), row("d")]);
  timers.advance(SERVED_QUIET_MS);
  await settled();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"]]);
  audit.writes[0]?.release();
  await settled();
  // Their quiet moment passed during the write: they go as it ends.
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"], ["b", "c", "d"]]);
  const flushed = writer.flushed();
  audit.writes[1]?.release();
  await flushed;
  expect(audit.writes).toHaveLength(2);
});

test("flushed writes at once, waiting for every pending row, including rows recorded during the wait", async () => {
  const audit = heldAudit();
  const { writer, timers } = writerOver(audit);
  writer.record([row("a")]);
  let done = false;
  const flushed = writer.flushed().then(() => (done = true));
  await settled();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"]]);
  writer.record([row("b")]);
  audit.writes[0]?.release();
  await settled();
  expect(done).toBe(false);
  audit.writes[1]?.release();
  await flushed;
  expect(audit.writes.map((write) => write.codes)).toEqual([["a"], ["b"]]);
  // The quiet moment's check finds nothing left to write.
  timers.advance(SERVED_MAX_WAIT_MS);
  await settled();
  expect(audit.writes).toHaveLength(2);
});

test("once the gateway is closing (flushed), rows are written as they come, with no quiet moment", async () => {
  const audit = heldAudit();
  const { writer } = writerOver(audit);
  await writer.flushed();
  writer.record([row("late")]);
  await settled();
  expect(audit.writes.map((write) => write.codes)).toEqual([["late"]]);
  audit.writes[0]?.release();
  await writer.flushed();
});

test("a failed write is counted with its rows; later rows are still written", async () => {
  const audit = heldAudit();
  const lost: number[] = [];
  const { writer, timers } = writerOver(audit, (rows) => lost.push(rows));
  writer.record([row("a"), row("b")]);
  timers.advance(SERVED_QUIET_MS);
  await settled();
  audit.writes[0]?.fail();
  await settled();
  expect(lost).toEqual([2]);
  writer.record([row("c")]);
  timers.advance(SERVED_QUIET_MS);
  await settled();
  audit.writes[1]?.release();
  await writer.flushed();
  expect(audit.writes.map((write) => write.codes)).toEqual([["a", "b"], ["c"]]);
  expect(lost).toEqual([2]);
});

test("an audit that throws at once is a failed write too: counted, and the writer goes on", async () => {
  const lost: number[] = [];
  const written: string[][] = [];
  let calls = 0;
  const audit = {
    recordServed: (answers: readonly ServedAnswer[]): Promise<void> => {
      calls += 1;
      if (calls === 1) throw new Error("the database is gone");
      written.push(answers.map((answer) => answer.code));
      return Promise.resolve();
    },
  };
  const timers = manualPackingTimers(0);
  const writer = new ServedWriter(audit, (rows) => lost.push(rows), {
    later: timers.later,
    elapsed: timers.now,
  });
  writer.record([row("a")]);
  timers.advance(SERVED_QUIET_MS);
  await settled();
  expect(lost).toEqual([1]);
  writer.record([row("b")]);
  timers.advance(SERVED_QUIET_MS);
  // Checked before flushed(): a writer stuck on the failed write would never settle it.
  await settled();
  expect(written).toEqual([["b"]]);
  await writer.flushed();
});

test("nothing recorded: nothing written, no check set, and flushed settles at once", async () => {
  const audit = heldAudit();
  const { writer, timers } = writerOver(audit);
  writer.record([]);
  expect(timers.pending()).toBe(0);
  await writer.flushed();
  expect(audit.writes).toHaveLength(0);
});
