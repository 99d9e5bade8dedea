// The purchase queue against an upstream whose answers the test holds and releases: what is
// bought, in which calls, for whom, and what each requester gets back.
import type { DataType } from "../../../src/core/model";
import { answerKey } from "../../../src/gateway/purchase/answer-key";
import { PurchaseQueue, type PurchaseItem } from "../../../src/gateway/purchase/purchase-queue";
import type { UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";
import { memoryStore, type MemoryStore } from "../support/memory-store";

interface HeldCall {
  path: string;
  codes: string[];
  answer(reply: UpstreamAnswer): void;
}

/**
 * An upstream whose calls wait until the test answers them. Turns (the service's rate) come at
 * once, or, with heldTurns, when the test grants them.
 */
function heldUpstream(options: { heldTurns?: boolean } = {}) {
  const calls: HeldCall[] = [];
  const turns: Array<() => void> = [];
  return {
    calls,
    turns,
    turn: () => (options.heldTurns ? new Promise<void>((resolve) => turns.push(resolve)) : Promise.resolve()),
    get: (path: string) =>
      new Promise<UpstreamAnswer>((resolve) => {
        const segment = path.split("/").pop() ?? "";
        calls.push({
          path,
          codes: segment.split(",").map((item) => item.split("&")[0] ?? ""),
          answer: resolve,
        });
      }),
  };
}

const ok = (codes: readonly string[]): UpstreamAnswer => ({
  status: 200,
  body: JSON.stringify(codes.map((code) => ({ code, coverage: "Germany", series_final_values: [] }))),
  contentType: "application/json",
  retryAfter: null,
});

function item(
  code: string,
  options: { currency?: string; dataType?: DataType; fingerprint?: string | null } = {},
): PurchaseItem {
  const requested = { code, currency: options.currency ?? "", unit: "" };
  return {
    key: answerKey("energy_price", "series_values", requested),
    requested,
    dataType: options.dataType ?? "energy",
    dataset: "Germany",
    fingerprint: options.fingerprint === undefined ? "2026-11-04|2026-10-01" : options.fingerprint,
  };
}

/** Runs the queue's idle-window flushes only when the test says so. */
function manualLater() {
  const due: Array<() => void> = [];
  return {
    later: (run: () => void) => void due.push(run),
    flush: () => {
      for (const run of due.splice(0)) run();
    },
  };
}

/** Lets the queue's awaited store calls run (they are promise-based, not timed). */
const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

let store: MemoryStore;
let upstream: ReturnType<typeof heldUpstream>;
let timer: ReturnType<typeof manualLater>;
let queue: PurchaseQueue;

beforeEach(() => {
  store = memoryStore();
  upstream = heldUpstream();
  timer = manualLater();
  queue = new PurchaseQueue({
    upstream,
    store,
    productPath: (product) => `/${product}`,
    now: () => Date.parse("2026-11-10T15:00:00Z"),
    idleMs: 10,
    later: timer.later,
  });
});

test("two members asking for one key while it is being bought share one purchase, charged to the first", async () => {
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [item("100-1-1")]);
  timer.flush();
  await settle();
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [item("100-1-1")]);
  timer.flush();
  await settle();
  expect(upstream.calls).toHaveLength(1);
  upstream.calls[0]?.answer(ok(["100-1-1"]));
  const [a, b] = await Promise.all([first, second]);
  expect(a.get(item("100-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
  expect(b.get(item("100-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
  expect(store.purchases).toHaveLength(1);
  expect(store.purchases[0]?.codes).toEqual([
    { key: item("100-1-1").key, code: "100-1-1", dataset: "Germany", member: "ann@example.com" },
  ]);
});

test("keys asked together go out in calls of at most 40 codes: a full call at once, the rest at the next turn", async () => {
  const codes = Array.from({ length: 45 }, (_, index) => `${200 + index}-1-1`);
  const bought = queue.buy(
    "ann@example.com",
    "energy_price",
    "series_values",
    codes.map((code) => item(code)),
  );
  await settle();
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([40, 5]);
  expect(upstream.calls[0]?.codes).toEqual(codes.slice(0, 40));
  for (const call of upstream.calls) call.answer(ok(call.codes));
  const outcomes = await bought;
  expect([...outcomes.values()].every((outcome) => outcome.kind === "answer")).toBe(true);
  expect(store.purchases.flatMap((purchase) => purchase.codes)).toHaveLength(45);
});

test("keys that arrive while a call waits for its turn at the service's rate ride in that call", async () => {
  upstream = heldUpstream({ heldTurns: true });
  queue = new PurchaseQueue({
    upstream,
    store,
    productPath: (product) => `/${product}`,
    now: () => Date.parse("2026-11-10T15:00:00Z"),
    idleMs: 10,
    later: timer.later,
  });
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [item("700-1-1")]);
  timer.flush();
  await settle();
  expect(upstream.turns).toHaveLength(1);
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [
    item("701-1-1"),
    item("702-1-1"),
  ]);
  timer.flush();
  await settle();
  expect(upstream.calls).toHaveLength(0);
  upstream.turns.shift()?.();
  await settle();
  expect(upstream.calls.map((call) => call.codes)).toEqual([["700-1-1", "701-1-1", "702-1-1"]]);
  upstream.calls[0]?.answer(ok(["700-1-1", "701-1-1", "702-1-1"]));
  await Promise.all([first, second]);
  expect(store.purchases[0]?.codes.map((code) => code.member)).toEqual([
    "ann@example.com",
    "bob@example.com",
    "bob@example.com",
  ]);
});

test.each([
  ["the same code with other options", [1, 1], [item("300-1-1"), item("300-1-1", { currency: "3" })]],
  [
    "codes of two data types",
    [1, 1],
    [item("300-1-1", { dataType: "utilities" }), item("301-1-1", { dataType: "cost_index" })],
  ],
  ["two codes of one data type", [2], [item("300-1-1"), item("301-1-1")]],
])("%s: calls of %j codes", async (_name, callSizes, items) => {
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", items);
  timer.flush();
  await settle();
  expect(upstream.calls.map((call) => call.codes.length).sort()).toEqual(callSizes);
  for (const call of upstream.calls) call.answer(ok(call.codes));
  await bought;
});

test("a refused call reaches every requester with the service's status and text, and nothing is kept or charged", async () => {
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [item("400-1-1")]);
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [item("401-1-1")]);
  timer.flush();
  await settle();
  const refusal = {
    status: 503,
    body: '{"message":"maintenance until 10 pm"}',
    contentType: "application/json",
    retryAfter: "3600",
  };
  upstream.calls[0]?.answer(refusal);
  for (const outcomes of await Promise.all([first, second])) {
    expect([...outcomes.values()]).toEqual([{ kind: "failed", answer: refusal }]);
  }
  expect(store.kept.size).toBe(0);
  expect(store.purchases).toHaveLength(0);
});

test("a code the service leaves out is absent and costs nothing; a code the catalog does not list is served but not kept", async () => {
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", [
    item("500-1-1"),
    item("501-1-1", { fingerprint: null }),
  ]);
  timer.flush();
  await settle();
  upstream.calls[0]?.answer(ok(["501-1-1"]));
  const outcomes = await bought;
  expect(outcomes.get(item("500-1-1").key)).toEqual({ kind: "absent" });
  expect(outcomes.get(item("501-1-1").key)).toMatchObject({ kind: "answer" });
  expect([...store.kept.keys()]).toEqual([]);
  expect(store.purchases[0]?.codes.map((code) => code.code)).toEqual(["501-1-1"]);
});

test("a key kept by another instance meanwhile (same fingerprint) is served from the store, not bought", async () => {
  await store.answers.put([
    {
      key: item("600-1-1").key,
      record: { code: "600-1-1" },
      fingerprint: "2026-11-04|2026-10-01",
      boughtAt: new Date(),
    },
  ]);
  const outcomes = await (async () => {
    const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("600-1-1")]);
    timer.flush();
    return bought;
  })();
  expect(upstream.calls).toHaveLength(0);
  expect(outcomes.get(item("600-1-1").key)).toEqual({
    kind: "answer",
    record: { code: "600-1-1" },
    source: "cache",
  });
});
