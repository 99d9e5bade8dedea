import { PurchaseAuditWriter } from "../../../src/gateway/purchase/purchase-audit-writer";
import type { Purchase } from "../../../src/gateway/store/gateway-store";
import { manualPackingTimers, type ManualPackingTimers } from "../support/manual-packing-timers";

const purchase = (code: string): Purchase => ({
  at: new Date("2026-11-10T15:00:00Z"),
  product: "energy_price",
  operation: "series_values",
  codes: [{ key: `energy_price|${code}`, code, dataset: "Germany", member: "ann@example.com" }],
});

/**
 * An audit that refuses rows while `refusing` (or the row's code is in `refused`), and whose
 * writes of the codes in `slow` wait until the test releases them.
 */
function heldAudit() {
  const written: string[] = [];
  const attempts: string[] = [];
  const state = { refusing: true, refused: new Set<string>(), slow: new Set<string>() };
  const releases: Array<() => void> = [];
  return {
    written,
    attempts,
    state,
    releases,
    recordPurchase: async (row: Purchase) => {
      const code = row.codes[0]?.code ?? "";
      attempts.push(code);
      if (state.slow.has(code)) await new Promise<void>((resolve) => releases.push(resolve));
      if (state.refusing || state.refused.has(code)) throw new Error("connection terminated");
      written.push(code);
    },
  };
}

const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

let timer: ManualPackingTimers;
let audit: ReturnType<typeof heldAudit>;
let waiting: number[];
let refused: number;
/** The codes of the rows reported lost, in order. */
let lost: string[];
/** Every report of a row, in order: the event and the row's code. */
let reports: string[];
let writer: PurchaseAuditWriter;

beforeEach(() => {
  timer = manualPackingTimers(0);
  audit = heldAudit();
  waiting = [];
  refused = 0;
  lost = [];
  reports = [];
  const codeOf = (row: Purchase): string => row.codes[0]?.code ?? "";
  writer = new PurchaseAuditWriter(audit, timer.later, {
    refused: () => (refused += 1),
    waiting: (count) => waiting.push(count),
    waitingRow: (row) => reports.push(`waiting ${codeOf(row)}`),
    writtenLate: (row) => reports.push(`written ${codeOf(row)}`),
    lost: (rows) => {
      lost.push(...rows.map(codeOf));
      reports.push(...rows.map((row) => `lost ${codeOf(row)}`));
    },
  });
});

/** Whether a waiting row's record has settled (after the microtasks due now). */
async function settledYet(record: Awaited<ReturnType<PurchaseAuditWriter["record"]>>): Promise<boolean> {
  let settled = false;
  void record?.settled.then(() => (settled = true));
  await settle();
  return settled;
}

test("a row the database takes is written once, with nothing left waiting", async () => {
  audit.state.refusing = false;
  expect(await writer.record(purchase("a"))).toBeNull();
  expect(audit.written).toEqual(["a"]);
  expect(writer.waiting()).toBe(0);
  expect(timer.pending()).toBe(0);
});

test("a refused row is written again 5 s later once the database takes rows, and counted till then", async () => {
  const record = await writer.record(purchase("a"));
  expect(refused).toBe(1);
  expect(writer.waiting()).toBe(1);
  audit.state.refusing = false;
  timer.advance(4_999);
  await settle();
  expect(audit.written).toEqual([]);
  expect(await settledYet(record)).toBe(false);
  timer.advance(1);
  await settle();
  expect(audit.written).toEqual(["a"]);
  expect(await settledYet(record)).toBe(true);
  expect(waiting).toEqual([1, 0]);
  expect(timer.pending()).toBe(0);
});

test("while the database refuses, the tries come 5, 10, 20, 40 s apart, then every minute", async () => {
  await writer.record(purchase("a"));
  const triedAt: number[] = [];
  for (let step = 0; step < 7; step += 1) {
    const before = audit.attempts.length;
    while (audit.attempts.length === before) {
      timer.advance(1_000);
      await settle();
    }
    triedAt.push(timer.now());
  }
  expect(triedAt).toEqual([5_000, 15_000, 35_000, 75_000, 135_000, 195_000, 255_000]);
});

test("every waiting row is tried: one the database refuses again does not hold back the others", async () => {
  await writer.record(purchase("a"));
  await writer.record(purchase("b"));
  await writer.record(purchase("c"));
  expect(writer.waiting()).toBe(3);
  // The database takes rows again, except b (say, a value it cannot store).
  audit.state.refusing = false;
  audit.state.refused.add("b");
  timer.advance(5_000);
  await settle();
  expect(audit.written).toEqual(["a", "c"]);
  expect(writer.waiting()).toBe(1);
  expect(waiting.at(-1)).toBe(1);
  expect(timer.pending()).toBe(1);
});

test("a retry that is due while the last is still writing waits for it: no row is written twice", async () => {
  await writer.record(purchase("a"));
  audit.state.refusing = false;
  audit.state.slow.add("a");
  timer.advance(5_000);
  await settle();
  // The retry's write of a hangs; b is refused meanwhile and plans the next retry.
  audit.state.refused.add("b");
  await writer.record(purchase("b"));
  timer.advance(60_000);
  await settle();
  audit.state.refused.delete("b");
  for (const release of audit.releases.splice(0)) release();
  await settle();
  timer.advance(60_000);
  await settle();
  expect(audit.written).toEqual(["a", "b"]);
  expect(writer.waiting()).toBe(0);
});

test("stopping gives the waiting rows one more try and plans none after it", async () => {
  await writer.record(purchase("a"));
  await writer.record(purchase("b"));
  audit.state.refusing = false;
  await writer.stop();
  expect(audit.written).toEqual(["a", "b"]);
  await writer.record(purchase("c")); // a late purchase the stopping gateway still audits
  expect(audit.written).toEqual(["a", "b", "c"]);
  audit.state.refusing = true;
  await writer.record(purchase("d"));
  timer.advance(120_000);
  await settle();
  expect(audit.attempts.filter((code) => code === "d")).toHaveLength(1);
});

test("stopping reports the rows the database still refuses as lost and settles their records", async () => {
  const a = await writer.record(purchase("a"));
  const b = await writer.record(purchase("b"));
  audit.state.refusing = false;
  audit.state.refused.add("b");
  await writer.stop();
  expect(audit.written).toEqual(["a"]);
  expect(lost).toEqual(["b"]);
  expect([await settledYet(a), await settledYet(b)]).toEqual([true, true]);
  expect(writer.waiting()).toBe(0);
  expect(waiting.at(-1)).toBe(0);
});

test("a row on its way when the stop begins gets the stop's try; one refused after the stop is lost at once", async () => {
  // The database takes a row at its second try; a's first write hangs until the stop has begun.
  const tries = new Map<string, number>();
  let releaseFirst = (): void => undefined;
  const firstWrite = new Promise<void>((resolve) => (releaseFirst = resolve));
  const written: string[] = [];
  const secondTry = new PurchaseAuditWriter(
    {
      recordPurchase: async (row) => {
        const code = row.codes[0]?.code ?? "";
        const tried = (tries.get(code) ?? 0) + 1;
        tries.set(code, tried);
        if (tried === 1 && code === "a") await firstWrite;
        if (tried === 1) throw new Error("connection terminated");
        written.push(code);
      },
    },
    timer.later,
    { lost: (rows) => lost.push(...rows.map((row) => row.codes[0]?.code ?? "")) },
  );
  const a = secondTry.record(purchase("a"));
  await settle();
  const stopped = secondTry.stop();
  releaseFirst();
  await stopped;
  expect(written).toEqual(["a"]);
  expect(tries.get("a")).toBe(2);
  expect(await settledYet(await a)).toBe(true);
  expect(lost).toEqual([]);

  // After the stop, a refused row is lost at once, its record settled, no retry planned.
  const late = await secondTry.record(purchase("c"));
  expect(lost).toEqual(["c"]);
  expect(await settledYet(late)).toBe(true);
  expect(secondTry.waiting()).toBe(0);
  expect(timer.pending()).toBe(0);
});

test("a report of lost rows that throws does not fail the stop", async () => {
  const failing = new PurchaseAuditWriter(audit, timer.later, {
    lost: () => {
      throw new Error("standard error is closed");
    },
  });
  await failing.record(purchase("a"));
  await expect(failing.stop()).resolves.toBeUndefined();
});

test("each refused row is reported as it starts waiting, and again when written or lost", async () => {
  audit.state.refusing = false;
  await writer.record(purchase("taken"));
  audit.state.refusing = true;
  await writer.record(purchase("a"));
  await writer.record(purchase("b"));
  expect(reports).toEqual(["waiting a", "waiting b"]);
  // The database takes a again, not b.
  audit.state.refusing = false;
  audit.state.refused.add("b");
  timer.advance(5_000);
  await settle();
  expect(reports).toEqual(["waiting a", "waiting b", "written a"]);
  await writer.stop();
  // A row refused after the stop is lost at once: it never waits.
  audit.state.refusing = true;
  await writer.record(purchase("c"));
  expect(reports).toEqual(["waiting a", "waiting b", "written a", "lost b", "lost c"]);
});

test("a report of a waiting row that throws changes nothing: the row is kept and written later", async () => {
  const reported = new PurchaseAuditWriter(audit, timer.later, {
    waitingRow: () => {
      throw new Error("standard error is closed");
    },
  });
  const record = await reported.record(purchase("a"));
  expect(reported.waiting()).toBe(1);
  audit.state.refusing = false;
  timer.advance(5_000);
  await settle();
  expect(audit.written).toEqual(["a"]);
  expect(await settledYet(record)).toBe(true);
});
