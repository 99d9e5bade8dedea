// The purchase queue against an upstream whose answers the test holds and releases: what is
// bought, in which calls, for whom, and what each requester gets back.
import type { DataType, ProductId } from "../../../src/core/model";
import { answerKey } from "../../../src/gateway/purchase/answer-key";
import {
  PurchaseQueue,
  REFUSED_ALONE_STANDS_MS,
  SHORT_ANSWER_STANDS_MS,
  STOP_WAIT_MS,
  UNANSWERED_STANDS_MS,
  type PurchaseItem,
  type PurchaseOutcome,
  type PurchaseQueueSettings,
  QUOTA_REFUSED_STANDS_MS,
} from "../../../src/gateway/purchase/purchase-queue";
import { UpstreamTimeout, type UpstreamAnswer } from "../../../src/gateway/upstream/upstream-client";
import type { GatewayStore, Purchase } from "../../../src/gateway/store/gateway-store";
import { memoryStore, type MemoryStore } from "../support/memory-store";
import { manualPackingTimers, type ManualPackingTimers } from "../support/manual-packing-timers";

interface HeldCall {
  path: string;
  codes: string[];
  answer(reply: UpstreamAnswer): void;
  /** The call ends without an answer (a timeout, a broken connection). */
  fail(error: Error): void;
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
      new Promise<UpstreamAnswer>((resolve, reject) => {
        const segment = path.split("/").pop() ?? "";
        calls.push({
          path,
          codes: segment.split(",").map((item) => item.split("&")[0] ?? ""),
          answer: resolve,
          fail: reject,
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
  options: { currency?: string; dataType?: DataType; fingerprint?: string | null; dataset?: string } = {},
): PurchaseItem {
  const requested = { code, currency: options.currency ?? "", unit: "" };
  return {
    key: answerKey("energy_price", "series_values", requested),
    requested,
    dataType: options.dataType ?? "energy",
    dataset: options.dataset ?? "Germany",
    fingerprint: options.fingerprint === undefined ? "2026-11-04|2026-10-01" : options.fingerprint,
  };
}

const START = Date.parse("2026-11-10T15:00:00Z");

/** How many times each call sent so far carried the code (a code may ride at most once a call). */
const timesInEachCall = (code: string): number[] =>
  upstream.calls.map((call) => call.codes.filter((carried) => carried === code).length);

/** Lets the queue's awaited store calls run (they are promise-based, not timed). */
const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

let store: MemoryStore;
let upstream: ReturnType<typeof heldUpstream>;
let timer: ManualPackingTimers;
let queue: PurchaseQueue;

/** A queue on the test's upstream, store and timers; `changes` replaces any of its settings. */
function queueWith(changes: Partial<PurchaseQueueSettings> = {}): PurchaseQueue {
  return new PurchaseQueue({
    upstream,
    store,
    productPath: (product) => `/${product}`,
    now: timer.now,
    elapsed: timer.now,
    idleMs: 10,
    maxWaitMs: 100,
    later: timer.later,
    ...changes,
  });
}

beforeEach(() => {
  store = memoryStore();
  upstream = heldUpstream();
  timer = manualPackingTimers(START);
  queue = queueWith();
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

test.each<[string, () => Promise<void>]>([
  [
    "another request's purchase under way",
    async () => {
      void queue.buy("ann@example.com", "energy_price", "series_values", [item("100-1-1")]);
      timer.flush();
      await settle();
    },
  ],
  [
    "a call that got no answer, standing for a while",
    async () => {
      const first = queue.buy("ann@example.com", "energy_price", "series_values", [item("100-1-1")]);
      timer.flush();
      await settle();
      upstream.calls[0]?.fail(new UpstreamTimeout("series_values", 130_000));
      await first;
    },
  ],
])("buy tells at once of a key it joins (%s), never of one it buys itself", async (_case, before) => {
  await before();
  const joined: string[] = [];
  const bought: string[] = [];
  const asked = queue.buy(
    "bob@example.com",
    "energy_price",
    "series_values",
    [item("100-1-1"), item("101-1-1")],
    {
      joined: (joinedItem) => joined.push(joinedItem.requested.code),
      bought: (boughtItem) => bought.push(boughtItem.requested.code),
    },
  );
  // Before buy awaits anything: the caller settles the key's share of its budget hold at once.
  expect(joined).toEqual(["100-1-1"]);
  timer.flush();
  await settle();
  for (const call of upstream.calls) call.answer(ok(call.codes));
  await asked;
  expect(joined).toEqual(["100-1-1"]);
  expect(bought).toEqual(["101-1-1"]);
});

test("a request made after the series changed does not join the purchase made before it: it buys anew once that call ends", async () => {
  const before = item("100-1-1", { fingerprint: "2026-11-04|2026-10-01" });
  const after = item("100-1-1", { fingerprint: "2026-11-10|2026-11-01" });
  const answerWith = (release: string): UpstreamAnswer => ({
    ...ok([]),
    body: JSON.stringify([{ code: "100-1-1", coverage: "Germany", release, series_final_values: [] }]),
  });
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [before]);
  timer.flush();
  await settle();
  expect(queue.buyingNow("energy_price", [before]).size).toBe(1);
  expect(queue.buyingNow("energy_price", [after]).size).toBe(0);
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [after]);
  timer.flush();
  await settle();
  expect(upstream.calls).toHaveLength(1);
  upstream.calls[0]?.answer(answerWith("October"));
  await first;
  for (let round = 0; round < 5 && upstream.calls.length < 2; round += 1) {
    timer.flush();
    await settle();
  }
  expect(upstream.calls).toHaveLength(2);
  upstream.calls[1]?.answer(answerWith("November"));
  const [a, b] = await Promise.all([first, second]);
  expect(a.get(before.key)).toMatchObject({ kind: "answer", source: "purchase" });
  expect(JSON.parse((a.get(before.key) as { recordJson: string }).recordJson)).toMatchObject({
    release: "October",
  });
  expect(JSON.parse((b.get(after.key) as { recordJson: string }).recordJson)).toMatchObject({
    release: "November",
  });
  expect(store.purchases.map((purchase) => purchase.codes[0]?.member)).toEqual([
    "ann@example.com",
    "bob@example.com",
  ]);
  expect(store.kept.get(after.key)?.fingerprint).toBe("2026-11-10|2026-11-01");
});

test("a purchase that waited for an earlier call of its key takes a new turn at the service's rate", async () => {
  upstream = heldUpstream({ heldTurns: true });
  queue = queueWith();
  const grant = async (): Promise<void> => {
    for (let round = 0; round < 5 && upstream.turns.length === 0; round += 1) {
      timer.flush();
      await settle();
    }
    expect(upstream.turns.length).toBeGreaterThan(0);
    upstream.turns.shift()?.();
    await settle();
  };
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [
    item("100-1-1", { fingerprint: "2026-11-04|2026-10-01" }),
  ]);
  await grant();
  expect(upstream.calls).toHaveLength(1);
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [
    item("100-1-1", { fingerprint: "2026-11-10|2026-11-01" }),
  ]);
  await grant();
  upstream.calls[0]?.answer(ok(["100-1-1"]));
  await first;
  await settle();
  // The second purchase's turn came while the first call was out: it waits for another.
  expect(upstream.calls).toHaveLength(1);
  await grant();
  expect(upstream.calls).toHaveLength(2);
  upstream.calls[1]?.answer(ok(["100-1-1"]));
  await second;
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
  // The five left over wait the idle window for company, then go at the next turn.
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([40]);
  timer.flush();
  await settle();
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([40, 5]);
  expect(upstream.calls[0]?.codes).toEqual(codes.slice(0, 40));
  for (const call of upstream.calls) call.answer(ok(call.codes));
  const outcomes = await bought;
  expect([...outcomes.values()].every((outcome) => outcome.kind === "answer")).toBe(true);
  expect(store.purchases.flatMap((purchase) => purchase.codes)).toHaveLength(45);
});

test("a code asked in two currencies rides in the first call once, so the rest fit one more call", async () => {
  const singles = Array.from({ length: 45 }, (_, index) => item(`${400 + index}-1-1`));
  const twice = [item("900-1-1"), item("900-1-1", { currency: "3" })];
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", [...singles, ...twice]);
  await settle();
  timer.flush();
  await settle();
  // 47 keys, 46 codes: two calls (a code once per call), never a third with the lone second key.
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([40, 7]);
  expect(timesInEachCall("900-1-1")).toEqual([1, 1]);
  for (const call of upstream.calls) call.answer(ok(call.codes));
  const outcomes = await bought;
  expect([...outcomes.values()].every((outcome) => outcome.kind === "answer")).toBe(true);
});

test("keys that arrive while a call waits for its turn at the service's rate ride in that call", async () => {
  upstream = heldUpstream({ heldTurns: true });
  queue = queueWith();
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

describe("a call the service refuses for some of its codes only: the others go again in smaller calls", () => {
  const quota = (dataset: string | null): UpstreamAnswer => ({
    status: 403,
    body: JSON.stringify({
      message: `Quota limit reached${dataset === null ? "" : ` for dataset '${dataset}'`}`,
    }),
    contentType: "application/json",
    retryAfter: null,
    refusal: { kind: "quota", dataset },
  });
  const mixed: UpstreamAnswer = {
    status: 400,
    body: JSON.stringify({ message: "The service refused the gateway's Series Values call (HTTP 400)." }),
    contentType: "application/json",
    retryAfter: null,
    refusal: { kind: "bad request" },
  };
  const dataset = (code: string): string =>
    code.startsWith("1") ? "Germany" : code.startsWith("2") ? "France" : "Spain";
  // what, the product, the codes (by member), how the service answers a call (null: it serves
  // it), the calls sent, and what each code gets (its status, or "answer")
  test.each<
    [
      string,
      ProductId,
      Array<[string, string[]]>,
      (codes: readonly string[]) => UpstreamAnswer | null,
      string[][],
      Record<string, number | "answer">,
    ]
  >([
    [
      "a quota naming one dataset: its codes get the refusal, the other dataset's are bought without them",
      "energy_price",
      [
        ["ann", ["100-1-1", "101-1-1"]],
        ["bob", ["200-1-1"]],
      ],
      (codes) => (codes.some((code) => dataset(code) === "France") ? quota("France") : null),
      [
        ["100-1-1", "101-1-1", "200-1-1"],
        ["100-1-1", "101-1-1"],
      ],
      { "100-1-1": "answer", "101-1-1": "answer", "200-1-1": 403 },
    ],
    [
      "a second quota in the smaller call: a smaller call again, never the same one",
      "energy_price",
      [
        ["ann", ["100-1-1", "200-1-1"]],
        ["bob", ["300-1-1"]],
      ],
      (codes) =>
        codes.some((code) => dataset(code) === "France")
          ? quota("France")
          : codes.some((code) => dataset(code) === "Spain")
            ? quota("Spain")
            : null,
      [["100-1-1", "200-1-1", "300-1-1"], ["100-1-1", "300-1-1"], ["100-1-1"]],
      { "100-1-1": "answer", "200-1-1": 403, "300-1-1": 403 },
    ],
    [
      "a quota naming no dataset: every code gets it",
      "energy_price",
      [
        ["ann", ["100-1-1"]],
        ["bob", ["200-1-1"]],
      ],
      () => quota(null),
      [["100-1-1", "200-1-1"]],
      { "100-1-1": 403, "200-1-1": 403 },
    ],
    [
      "a quota naming the dataset of every code: every code gets it",
      "energy_price",
      [
        ["ann", ["100-1-1"]],
        ["bob", ["101-1-1"]],
      ],
      () => quota("Germany"),
      [["100-1-1", "101-1-1"]],
      { "100-1-1": 403, "101-1-1": 403 },
    ],
    [
      "industry economics refused as mixing data types: halved until the odd code is alone",
      "industry_economics",
      [
        ["ann", ["100-1-1", "101-1-1"]],
        ["bob", ["102-1-1", "109-1-1"]],
      ],
      (codes) => (codes.length > 1 && codes.includes("109-1-1") ? mixed : null),
      [
        ["100-1-1", "101-1-1", "102-1-1", "109-1-1"],
        ["100-1-1", "101-1-1"],
        ["102-1-1", "109-1-1"],
        ["102-1-1"],
        ["109-1-1"],
      ],
      { "100-1-1": "answer", "101-1-1": "answer", "102-1-1": "answer", "109-1-1": "answer" },
    ],
    [
      "a bad request of another product: every code gets it",
      "energy_price",
      [
        ["ann", ["100-1-1"]],
        ["bob", ["101-1-1"]],
      ],
      () => mixed,
      [["100-1-1", "101-1-1"]],
      { "100-1-1": 400, "101-1-1": 400 },
    ],
  ])("%s", async (_case, product, asks, service, sent, outcomes) => {
    const charged: string[][] = [];
    const ended: boolean[] = [];
    queue = queueWith({
      events: {
        charged: (_product, _operation, datasets) => charged.push([...datasets]),
        ended: (_product, _operation, _charged, known) => ended.push(known),
      },
    });
    const asked = asks.map(([who, codes]) =>
      queue.buy(
        `${who}@example.com`,
        product,
        "series_values",
        codes.map((code) => item(code, { dataset: dataset(code) })),
      ),
    );
    timer.flush();
    await settle();
    for (let answered = 0; answered < upstream.calls.length; answered += 1) {
      const call = upstream.calls[answered];
      call?.answer(service(call.codes) ?? ok(call.codes));
      await settle();
    }
    expect(upstream.calls.map((call) => call.codes)).toEqual(sent);
    const got: Record<string, number | string> = {};
    for (const [index, [, codes]] of asks.entries()) {
      const settled = await asked[index];
      for (const code of codes) {
        const outcome = settled?.get(item(code).key);
        got[code] = outcome?.kind === "failed" ? outcome.answer.status : (outcome?.kind ?? "none");
      }
    }
    expect(got).toEqual(outcomes);
    // Every call's end is told, and only the answered codes are charged and audited.
    expect(ended).toEqual(sent.map(() => true));
    const bought = Object.keys(outcomes).filter((code) => outcomes[code] === "answer");
    expect(charged.flat()).toEqual(bought.map(dataset));
    expect(store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.code)).sort()).toEqual(
      bought,
    );
  });

  // Members' engines halve a refused industry call too: each of their halves holding the odd
  // code would set off the gateway's halving at the service again, so the code refused alone
  // answers its key with that refusal for a while.
  test.each<[string, number, number]>([
    // what, when the odd code is asked again (ms after), the calls in all
    ["asked again at once: no call", 0, 3],
    ["asked again just before the while ends: no call", REFUSED_ALONE_STANDS_MS - 1, 3],
    ["asked again once the while is over: sent again", REFUSED_ALONE_STANDS_MS, 4],
  ])("an industry code refused alone: %s", async (_case, later, calls) => {
    let answered = 0;
    const answerAll = async (): Promise<void> => {
      for (; answered < upstream.calls.length; answered += 1) {
        const call = upstream.calls[answered];
        call?.answer(call.codes.includes("109-1-1") ? mixed : ok(call.codes));
        await settle();
      }
    };
    const first = queue.buy("ann@example.com", "industry_economics", "series_values", [
      item("108-1-1"),
      item("109-1-1"),
    ]);
    timer.flush();
    await settle();
    await answerAll();
    const outcome = (await first).get(item("109-1-1").key);
    expect(outcome?.kind === "failed" ? outcome.answer.status : outcome?.kind).toBe(400);
    timer.advance(later);
    const again = queue.buy("bob@example.com", "industry_economics", "series_values", [item("109-1-1")]);
    timer.flush();
    await settle();
    await answerAll();
    const second = (await again).get(item("109-1-1").key);
    expect(second?.kind === "failed" ? second.answer.status : second?.kind).toBe(400);
    expect(upstream.calls).toHaveLength(calls);
  });

  test("a refused dataset's code is refused in the service's words for that dataset, not for another's", async () => {
    const asked = [
      queue.buy("ann@example.com", "energy_price", "series_values", [item("100-1-1")]),
      queue.buy("bob@example.com", "energy_price", "series_values", [item("200-1-1", { dataset: "France" })]),
    ];
    timer.flush();
    await settle();
    upstream.calls[0]?.answer(quota("France"));
    await settle();
    upstream.calls[1]?.answer(ok(["100-1-1"]));
    const [ann, bob] = await Promise.all(asked);
    expect(ann?.get(item("100-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
    expect(bob?.get(item("200-1-1").key)).toEqual({ kind: "failed", answer: quota("France") });
  });
});

describe("a record short of the catalog (its last final month before last_available_final) is served, never kept as current", () => {
  const CATALOG = "2026-11-04|2026-10-01";
  const values = (code: string, last: string): UpstreamAnswer => ({
    ...ok([]),
    body: JSON.stringify([
      {
        code,
        coverage: "Germany",
        series_final_values: [
          { date: "2026-08-01", value: 1 },
          { date: last, value: 2 },
        ],
      },
    ]),
  });
  const asked = (): PurchaseItem => ({
    ...item("100-1-1", { fingerprint: CATALOG }),
    lastAvailableFinal: "2026-10-01",
  });
  const lastMonth = (outcome: PurchaseOutcome | undefined): string =>
    outcome?.kind === "answer"
      ? ((
          JSON.parse(outcome.recordJson) as { series_final_values: Array<{ date: string }> }
        ).series_final_values.at(-1)?.date ?? "")
      : (outcome?.kind ?? "");
  /** Asks for the key as `member`, answering its call (if one goes) with finals up to `last`. */
  const ask = async (member: string, last: string): Promise<PurchaseOutcome | undefined> => {
    const calls = upstream.calls.length;
    const buying = queue.buy(member, "energy_price", "series_values", [asked()]);
    timer.flush();
    await settle();
    if (upstream.calls.length > calls) upstream.calls[calls]?.answer(values("100-1-1", last));
    return (await buying).get(asked().key);
  };

  test.each<[string, number, number, string, boolean]>([
    // what, when the second request comes (ms after the first answer), the calls in all, the
    // month it gets, whether it gets the short record again
    ["another member at once", 0, 1, "2026-09-01", true],
    ["a member just before the 15 minutes end", SHORT_ANSWER_STANDS_MS - 1, 1, "2026-09-01", true],
    ["a member when the 15 minutes are over", SHORT_ANSWER_STANDS_MS, 2, "2026-10-01", false],
    ["the member's engine asking again an hour later", 60 * 60_000, 2, "2026-10-01", false],
  ])("%s: %d ms later, %d call(s) in all", async (_case, later, calls, month, shortAgain) => {
    const first = await ask("ann@example.com", "2026-09-01");
    expect(first).toMatchObject({ kind: "answer", source: "purchase", short: true });
    expect(lastMonth(first)).toBe("2026-09-01");
    // Charged, so audited; not kept as the series' current answer.
    expect(store.purchases).toHaveLength(1);
    expect(store.kept.has(asked().key)).toBe(false);
    timer.advance(later);
    expect(queue.buyingNow("energy_price", [asked()]).size).toBe(shortAgain ? 1 : 0);
    const second = await ask("bob@example.com", "2026-10-01");
    expect(upstream.calls).toHaveLength(calls);
    expect(lastMonth(second)).toBe(month);
    expect(second).toMatchObject(
      shortAgain ? { kind: "answer", source: "cache", short: true } : { kind: "answer", source: "purchase" },
    );
    expect(second !== undefined && "short" in second).toBe(shortAgain);
    expect(store.purchases).toHaveLength(calls);
    // A whole record is kept as current, and answers from the store from then on.
    expect(store.kept.get(asked().key)?.fingerprint).toBe(shortAgain ? undefined : CATALOG);
  });

  test("members asking within the 15 minutes cost one purchase", async () => {
    await ask("ann@example.com", "2026-09-01");
    const burst = await Promise.all(
      ["bob", "cid", "dan"].map((who) => ask(`${who}@example.com`, "2026-10-01")),
    );
    expect(upstream.calls).toHaveLength(1);
    expect(burst.map(lastMonth)).toEqual(["2026-09-01", "2026-09-01", "2026-09-01"]);
  });

  test("after a release (a new fingerprint) the key is bought at once", async () => {
    await ask("ann@example.com", "2026-09-01");
    const released = { ...asked(), fingerprint: "2026-12-03|2026-11-01", lastAvailableFinal: "2026-11-01" };
    const buying = queue.buy("bob@example.com", "energy_price", "series_values", [released]);
    timer.flush();
    await settle();
    expect(upstream.calls).toHaveLength(2);
    upstream.calls[1]?.answer(values("100-1-1", "2026-11-01"));
    expect(lastMonth((await buying).get(released.key))).toBe("2026-11-01");
    expect(store.kept.get(released.key)?.fingerprint).toBe("2026-12-03|2026-11-01");
  });
});

describe("a data call that got no answer in time may have been charged: its keys are not bought again for five minutes", () => {
  const hist = (code: string): PurchaseItem => ({ ...item(code), key: `hist|${code}` });
  /** Asks for the History of 100-1-1 as `member`; a call that goes gets `reply`. */
  const ask = async (
    member: string,
    reply: (call: HeldCall) => void,
  ): Promise<PurchaseOutcome | undefined> => {
    const calls = upstream.calls.length;
    const buying = queue.buy(member, "energy_price", "series_hist", [hist("100-1-1")]);
    timer.flush();
    await settle();
    const call = upstream.calls[calls];
    if (call !== undefined) reply(call);
    return (await buying).get(hist("100-1-1").key);
  };
  const timesOut = (call: HeldCall): void => call.fail(new UpstreamTimeout("series_hist", 300_000));

  test.each<[string, number, number, number | "answer", string | null]>([
    // what, when the second request comes (ms after the timeout), the calls in all, what it
    // gets (a status, or an answer), its Retry-After
    ["another member at once", 0, 1, 504, "300"],
    ["a member four minutes later", 4 * 60_000, 1, 504, "60"],
    ["a member when the five minutes are over", UNANSWERED_STANDS_MS, 2, "answer", null],
  ])("%s: %d ms later, %d call(s) in all", async (_case, later, calls, got, retryAfter) => {
    const ended: boolean[] = [];
    queue = queueWith({ events: { ended: (_product, _operation, _charged, known) => ended.push(known) } });
    const first = await ask("ann@example.com", timesOut);
    expect(first).toEqual({
      kind: "failed",
      answer: {
        status: 504,
        body: JSON.stringify({
          message:
            "The service did not answer the gateway's Series Values History call within 300 s. The service may have charged it: the gateway does not buy its codes again for 5 minutes.",
        }),
        contentType: "application/json; charset=utf-8",
        retryAfter: "300",
      },
    });
    // Nobody can say what the call charged: it is told so, and nothing is audited.
    expect(ended).toEqual([false]);
    expect(store.purchases).toEqual([]);
    timer.advance(later);
    expect(queue.buyingNow("energy_price", [hist("100-1-1")]).size).toBe(got === "answer" ? 0 : 1);
    const second = await ask("bob@example.com", (call) => call.answer(ok(call.codes)));
    expect(upstream.calls).toHaveLength(calls);
    expect(second?.kind === "failed" ? second.answer.status : second?.kind).toBe(got);
    if (second?.kind === "failed") expect(second.answer.retryAfter).toBe(retryAfter);
  });

  test("a call the service answered 504 (its own front end got no answer) stands like a timeout: not bought again for 5 minutes", async () => {
    const ended: boolean[] = [];
    queue = queueWith({ events: { ended: (_product, _operation, _charged, known) => ended.push(known) } });
    const first = await ask("ann@example.com", (call) =>
      call.answer({
        status: 504,
        body: JSON.stringify({ message: "The service is failing: it answered the gateway's call HTTP 504." }),
        contentType: "application/json; charset=utf-8",
        retryAfter: null,
        serviceStatus: 504,
      }),
    );
    expect(first?.kind === "failed" ? first.answer : first).toMatchObject({
      status: 504,
      retryAfter: "300",
      serviceStatus: 504,
    });
    // Nobody can say what the call charged: nothing is audited, and it is told so.
    expect(ended).toEqual([false]);
    expect(store.purchases).toEqual([]);
    timer.advance(60_000);
    const second = await ask("bob@example.com", (call) => call.answer(ok(call.codes)));
    expect(upstream.calls).toHaveLength(1);
    expect(second?.kind === "failed" ? second.answer.status : second?.kind).toBe(504);
  });

  test("a call that failed before it reached the service (no connection) is bought again at the next request", async () => {
    const first = await ask("ann@example.com", (call) =>
      call.fail(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } })),
    );
    expect(first?.kind === "failed" ? first.answer.status : first?.kind).toBe(502);
    const second = await ask("bob@example.com", (call) => call.answer(ok(call.codes)));
    expect(second?.kind).toBe("answer");
    expect(upstream.calls).toHaveLength(2);
  });
});

describe("a 2xx answer that cannot be read was charged, though nobody can say for what: its keys are not bought again for five minutes", () => {
  /** Asks for 100-1-1 as `member`; a call that goes gets `reply`. */
  const ask = async (
    member: string,
    reply: (call: HeldCall) => void,
  ): Promise<PurchaseOutcome | undefined> => {
    const calls = upstream.calls.length;
    const buying = queue.buy(member, "energy_price", "series_values", [item("100-1-1")]);
    timer.flush();
    await settle();
    const call = upstream.calls[calls];
    if (call !== undefined) reply(call);
    return (await buying).get(item("100-1-1").key);
  };
  const unreadable = (call: HeldCall): void =>
    call.answer({ status: 200, body: "<html>", contentType: "text/html", retryAfter: null });

  test.each<[string, number, number, number | "answer", string | null]>([
    // who asks next, when (ms after the unreadable answer), the calls in all, what they get (a
    // status, or an answer), its Retry-After
    ["another member at once", 0, 1, 502, "300"],
    ["a member four minutes later", 4 * 60_000, 1, 502, "60"],
    ["a member when the five minutes are over", UNANSWERED_STANDS_MS, 2, "answer", null],
  ])("%s: %d ms later, %d call(s) in all", async (_case, later, calls, got, retryAfter) => {
    const first = await ask("ann@example.com", unreadable);
    expect(first).toEqual({
      kind: "failed",
      answer: {
        status: 502,
        body: JSON.stringify({
          message:
            "The service's answer is not a list of series records. The service may have charged it: the gateway does not buy its codes again for 5 minutes.",
        }),
        contentType: "application/json; charset=utf-8",
        retryAfter: "300",
      },
    });
    expect(store.purchases).toEqual([]);
    timer.advance(later);
    const second = await ask("bob@example.com", (call) => call.answer(ok(call.codes)));
    expect(upstream.calls).toHaveLength(calls);
    expect(second?.kind === "failed" ? second.answer.status : second?.kind).toBe(got);
    if (second?.kind === "failed") expect(second.answer.retryAfter).toBe(retryAfter);
  });
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
      recordJson: '{"code":"600-1-1"}',
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
    recordJson: '{"code":"600-1-1"}',
    source: "cache",
  });
});

test("a part-filled call waits while codes keep coming, and goes once none came for the idle window", async () => {
  const asked = [queue.buy("ann@example.com", "energy_price", "series_values", [item("800-1-1")])];
  timer.advance(6);
  asked.push(queue.buy("bob@example.com", "energy_price", "series_values", [item("801-1-1")]));
  // The idle window counts from the last code: at 10 ms, bob's code came 4 ms ago.
  timer.advance(4);
  await settle();
  expect(upstream.calls).toHaveLength(0);
  expect(timer.pending()).toBe(1);
  timer.advance(6);
  await settle();
  expect(upstream.calls.map((call) => call.codes)).toEqual([["800-1-1", "801-1-1"]]);
  upstream.calls[0]?.answer(ok(["800-1-1", "801-1-1"]));
  await Promise.all(asked);
});

describe("the idle window: the team's while several members ask, a shorter one for a member alone", () => {
  // idleMs 30 (several members), soloIdleMs 10 (one member), maxWaitMs 100.
  test.each<[string, Array<[number, string, string]>, number[]]>([
    // what, who asks for which code when (ms), when calls left (ms)
    ["one member alone: the solo window", [[0, "ann", "800-1-1"]], [10]],
    [
      "a member's own codes keep coming: still the solo window, from the last",
      [
        [0, "ann", "800-1-1"],
        [6, "ann", "801-1-1"],
      ],
      [16],
    ],
    [
      "two members asking: the team's window, from the last code",
      [
        [0, "ann", "800-1-1"],
        [6, "bob", "801-1-1"],
      ],
      [36],
    ],
    [
      "a member who asked longer ago than the longest wait no longer counts",
      [
        [0, "bob", "801-1-1"],
        [150, "ann", "800-1-1"],
      ],
      [10, 160],
    ],
  ])("%s", async (_, asks, leftAt) => {
    queue = queueWith({ idleMs: 30, soloIdleMs: 10 });
    const sentAt: number[] = [];
    const asked: Array<Promise<unknown>> = [];
    for (let at = 0; at < 300; at += 1) {
      for (const [when, who, code] of asks) {
        if (when === at)
          asked.push(queue.buy(`${who}@example.com`, "energy_price", "series_values", [item(code)]));
      }
      timer.advance(1);
      await settle();
      while (sentAt.length < upstream.calls.length) sentAt.push(at + 1);
    }
    expect(sentAt).toEqual(leftAt);
    for (const call of upstream.calls) call.answer(ok(call.codes));
    await Promise.all(asked);
  });
});

describe("a request on its way to the queue (arrived, not yet asking) holds a part-filled call", () => {
  // idleMs 10, maxWaitMs 100. A first code at 0 ms; a second request comes in at 5 ms and asks
  // for its code when `asksAt` says (null: it ends without asking, at `endsAt`).
  test.each<[string, { asksAt: number | null; endsAt: number }, number[], string[][]]>([
    // what, the second request, when the call left (ms), the calls' codes
    [
      "it asks at 60 ms: one call, 10 ms after it asked",
      { asksAt: 60, endsAt: 60 },
      [70],
      [["800-1-1", "801-1-1"]],
    ],
    [
      // Held by a request on its way, the call looks again every 10 ms: at 40 ms the request
      // was still on its way, at 50 ms it is not.
      "it ends at 40 ms without asking: the call goes at its next look, not at the longest wait",
      { asksAt: null, endsAt: 40 },
      [50],
      [["800-1-1"]],
    ],
    [
      "it never gets there: the call goes at the longest wait",
      { asksAt: null, endsAt: 500 },
      [100],
      [["800-1-1"]],
    ],
  ])("%s", async (_, second, leftAt, codes) => {
    const sentAt: number[] = [];
    const started = timer.now();
    const asked: Array<Promise<unknown>> = [
      queue.buy("ann@example.com", "energy_price", "series_values", [item("800-1-1")]),
    ];
    const watchCalls = async (): Promise<void> => {
      await settle();
      while (sentAt.length < upstream.calls.length) sentAt.push(timer.now() - started);
    };
    timer.advance(5);
    const arrived = queue.arriving();
    for (let at = 5; at < 200; at += 1) {
      if (second.asksAt === at) {
        asked.push(queue.buy("bob@example.com", "energy_price", "series_values", [item("801-1-1")]));
        arrived();
      } else if (second.endsAt === at) {
        arrived();
      }
      timer.advance(1);
      await watchCalls();
    }
    arrived();
    expect(sentAt).toEqual(leftAt);
    expect(upstream.calls.map((call) => call.codes)).toEqual(codes);
    for (const call of upstream.calls) call.answer(ok(call.codes));
    await Promise.all(asked);
  });

  test("requests that come in after the idle window ended do not hold the call: a busy gateway still sends it", async () => {
    const asked = queue.buy("ann@example.com", "energy_price", "series_values", [item("800-1-1")]);
    // A request comes in every 7 ms and is on its way for 12 ms: one is always on its way. The
    // idle window ends at 10 ms; the requests that came by then (at 0 and 7 ms) are there by
    // 19 ms, and the call's next look, at 20 ms, sends it.
    const onTheirWay: Array<{ endsAt: number; arrived: () => void }> = [];
    const sentAt: number[] = [];
    for (let at = 0; at < 150; at += 1) {
      if (at % 7 === 0) onTheirWay.push({ endsAt: at + 12, arrived: queue.arriving() });
      for (const request of onTheirWay) if (request.endsAt === at) request.arrived();
      timer.advance(1);
      await settle();
      while (sentAt.length < upstream.calls.length) sentAt.push(at + 1);
    }
    for (const request of onTheirWay) request.arrived();
    expect(sentAt).toEqual([20]);
    upstream.calls[0]?.answer(ok(["800-1-1"]));
    await asked;
  });

  test("its end said twice counts once: another request on its way still holds the call", async () => {
    const asked = queue.buy("ann@example.com", "energy_price", "series_values", [item("800-1-1")]);
    const first = queue.arriving();
    const second = queue.arriving();
    first();
    first();
    timer.advance(50);
    await settle();
    expect(upstream.calls).toHaveLength(0);
    second();
    timer.advance(10);
    await settle();
    expect(upstream.calls.map((call) => call.codes)).toEqual([["800-1-1"]]);
    upstream.calls[0]?.answer(ok(["800-1-1"]));
    await asked;
  });
});

test("codes that never stop coming still go once the first has waited the longest wait", async () => {
  const asked: Array<Promise<unknown>> = [];
  // A code every 8 ms (under the 10 ms idle window) for 160 ms; the longest wait is 100 ms.
  for (let index = 0; index < 20; index += 1) {
    asked.push(queue.buy("ann@example.com", "energy_price", "series_values", [item(`${900 + index}-1-1`)]));
    timer.advance(8);
    await settle();
  }
  // The first call left when its first code had waited 100 ms, with the 13 codes come by then
  // (0 to 96 ms); the other 7 left once none came for the idle window.
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([13]);
  timer.advance(10);
  await settle();
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([13, 7]);
  for (const call of upstream.calls) call.answer(ok(call.codes));
  await Promise.all(asked);
});

test("codes left after a full call wait the longest wait from their own arrival, not from the codes that left", async () => {
  const asked: Array<Promise<unknown>> = [];
  const ask = (member: string, codes: readonly string[]) =>
    asked.push(
      queue.buy(
        member,
        "energy_price",
        "series_values",
        codes.map((code) => item(code)),
      ),
    );
  const codes = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => `${from + index}-1-1`);
  // Ann's 40 codes leave at once at 0 ms (she asks alone); Bob's 45 at 8 ms wait for company.
  ask("ann@example.com", codes(100, 40));
  timer.advance(8);
  ask("bob@example.com", codes(200, 45));
  await settle();
  expect(upstream.calls.map((call) => call.codes)).toEqual([codes(100, 40)]);
  // Then a code every 8 ms (under the 10 ms idle window): Bob's 45, which came at 8 ms, wait
  // until 108 ms; 100 ms is the longest wait of Ann's codes, which left long ago.
  for (let step = 0; step < 12; step += 1) {
    timer.advance(8);
    ask("cid@example.com", codes(300 + step, 1));
    await settle();
  }
  expect(timer.now() - START).toBe(104);
  expect(upstream.calls).toHaveLength(1);
  timer.advance(8);
  await settle();
  expect(upstream.calls.map((call) => call.codes.length)).toEqual([40, 40, 17]);
  expect(upstream.calls[2]?.codes.slice(0, 5)).toEqual(codes(240, 5));
  for (const call of upstream.calls) call.answer(ok(call.codes));
  await Promise.all(asked);
});

describe("a full call goes at once while one member asks; while several ask, only with another full call's worth behind it", () => {
  const codes = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => item(`${from + index}-1-1`));
  test.each<[string, Array<[string, number]>, number[], number[]]>([
    // what, who asks how many new codes (in this order, at once), the calls that leave at once,
    // the calls once the idle window ended
    ["one member, 45 codes", [["ann", 45]], [40], [40, 5]],
    ["one member, 85 codes", [["ann", 85]], [40, 40], [40, 40, 5]],
    [
      "two members, 45 codes",
      [
        ["ann", 30],
        ["bob", 15],
      ],
      [],
      [40, 5],
    ],
    [
      "two members, 79 codes",
      [
        ["ann", 30],
        ["bob", 49],
      ],
      [],
      [40, 39],
    ],
    [
      "two members, 85 codes",
      [
        ["ann", 30],
        ["bob", 55],
      ],
      [40],
      [40, 40, 5],
    ],
    [
      "one member's full call, then a second member's 45 codes",
      [
        ["ann", 40],
        ["bob", 45],
      ],
      [40],
      [40, 40, 5],
    ],
  ])("%s", async (_, asks, atOnce, afterIdle) => {
    let next = 100;
    const asked = asks.map(([who, count]) => {
      const items = codes(next, count);
      next += count;
      return queue.buy(`${who}@example.com`, "energy_price", "series_values", items);
    });
    await settle();
    expect(upstream.calls.map((call) => call.codes.length)).toEqual(atOnce);
    timer.advance(10);
    await settle();
    expect(upstream.calls.map((call) => call.codes.length)).toEqual(afterIdle);
    for (const call of upstream.calls) call.answer(ok(call.codes));
    await Promise.all(asked);
  });

  test("a code a third member asks in another currency after a full call's worth had come rides in one of two calls, not a third", async () => {
    const annCodes = codes(100, 30);
    const bobCodes = codes(200, 15);
    // Cid asks for one of Bob's codes in another currency, and 34 new codes: 80 keys, 79 codes.
    const cidCodes = [item("211-1-1", { currency: "3" }), ...codes(300, 34)];
    const asked = [
      queue.buy("ann@example.com", "energy_price", "series_values", annCodes),
      queue.buy("bob@example.com", "energy_price", "series_values", bobCodes),
    ];
    timer.advance(5);
    await settle();
    // Had Ann's codes and ten of Bob's left at once, Bob's code 211 would have waited with
    // Cid's key of it, 40 keys of 39 codes: three calls in all.
    expect(upstream.calls).toHaveLength(0);
    asked.push(queue.buy("cid@example.com", "energy_price", "series_values", cidCodes));
    timer.advance(10);
    await settle();
    expect(upstream.calls.map((call) => call.codes.length)).toEqual([40, 40]);
    expect(timesInEachCall("211-1-1")).toEqual([1, 1]);
    for (const call of upstream.calls) call.answer(ok(call.codes));
    const outcomes = await Promise.all(asked);
    expect(outcomes.flatMap((outcome) => [...outcome.values()].map((entry) => entry.kind))).toEqual(
      Array.from({ length: 80 }, () => "answer"),
    );
  });
});

test("the end of every call is told with what it charged, also when keeping its answer fails", async () => {
  const ended: string[][] = [];
  queue = queueWith({
    store: { ...store, answers: { ...store.answers, put: () => Promise.reject(new Error("disk full")) } },
    events: {
      ended: (_product, _operation, charged, known) => ended.push([...charged, known ? "known" : "unknown"]),
    },
  });
  const kept = queue.buy("ann@example.com", "energy_price", "series_values", [
    item("960-1-1"),
    item("961-1-1"),
  ]);
  timer.flush();
  await settle();
  upstream.calls[0]?.answer(ok(["960-1-1"]));
  const outcomes = await kept;
  expect(ended).toEqual([["Germany", "known"]]);
  expect(outcomes.get(item("960-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
  const refused = queue.buy("ann@example.com", "energy_price", "series_values", [item("962-1-1")]);
  timer.flush();
  await settle();
  upstream.calls[1]?.answer({ status: 503, body: "{}", contentType: "application/json", retryAfter: null });
  await refused;
  expect(ended).toEqual([["Germany", "known"], ["known"]]);
  // A 2xx that cannot be read: the service charged something, nobody can say what.
  const unreadable = queue.buy("ann@example.com", "energy_price", "series_values", [item("963-1-1")]);
  timer.flush();
  await settle();
  upstream.calls[2]?.answer({ status: 200, body: "<html>", contentType: "text/html", retryAfter: null });
  await unreadable;
  expect(ended).toEqual([["Germany", "known"], ["known"], ["unknown"]]);
});

test.each<[string, "purchase audit" | "answers", (memory: MemoryStore) => GatewayStore]>([
  [
    "its answers",
    "answers",
    (memory) => ({
      ...memory,
      answers: { ...memory.answers, put: () => Promise.reject(new Error("disk full")) },
    }),
  ],
  [
    "its audit row",
    "purchase audit",
    (memory) => ({
      ...memory,
      audit: { ...memory.audit, recordPurchase: () => Promise.reject(new Error("connection terminated")) },
    }),
  ],
])(
  "a charged call whose %s the database refuses: the paid records are served and the loss counted",
  async (_case, lost, failing) => {
    const failures: string[] = [];
    const charged: string[][] = [];
    queue = queueWith({
      store: failing(store),
      events: {
        storeFailed: (what) => failures.push(what),
        charged: (_product, _operation, datasets) => charged.push([...datasets]),
      },
    });
    const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("970-1-1")]);
    timer.flush();
    await settle();
    upstream.calls[0]?.answer(ok(["970-1-1"]));
    const outcomes = await bought;
    expect(outcomes.get(item("970-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
    expect(failures).toEqual([lost]);
    expect(charged).toEqual([["Germany"]]);
    // Whatever the database did keep of it stays: the audit row when only the answers were lost.
    expect(store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.code))).toEqual(
      lost === "answers" ? ["970-1-1"] : [],
    );
    expect(store.kept.has(item("970-1-1").key)).toBe(lost !== "answers");
  },
);

test("a purchase whose audit row the database refused is audited once the database takes rows again", async () => {
  let refusals = 1;
  const waiting: number[] = [];
  queue = queueWith({
    store: {
      ...store,
      audit: {
        ...store.audit,
        recordPurchase: (purchase) => {
          if (refusals > 0) {
            refusals -= 1;
            return Promise.reject(new Error("connection terminated"));
          }
          return store.audit.recordPurchase(purchase);
        },
      },
    },
    events: { auditWaiting: (count) => waiting.push(count) },
  });
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("975-1-1")]);
  timer.flush();
  await settle();
  upstream.calls[0]?.answer(ok(["975-1-1"]));
  const outcome = (await bought).get(item("975-1-1").key);
  expect(store.purchases).toEqual([]);
  // The requester is answered at once, and told that the audit does not count the purchase yet.
  expect(outcome).toMatchObject({ kind: "answer", source: "purchase" });
  const auditWaiting = outcome?.kind === "answer" ? outcome.auditWaiting : undefined;
  expect(auditWaiting).toBeInstanceOf(Promise);
  let audited = false;
  void auditWaiting?.then(() => (audited = true));
  await settle();
  expect(audited).toBe(false);
  timer.advance(5_000);
  await settle();
  expect(store.purchases.flatMap((purchase) => purchase.codes)).toEqual([
    { key: item("975-1-1").key, code: "975-1-1", dataset: "Germany", member: "ann@example.com" },
  ]);
  expect(audited).toBe(true);
  expect(waiting).toEqual([1, 0]);
});

test("a purchase audited at once says nothing waits; at the queue's stop the rows still refused are reported lost", async () => {
  let refusing = false;
  const lost: Purchase[] = [];
  queue = queueWith({
    events: { auditLost: (purchases) => lost.push(...purchases) },
    store: {
      ...store,
      audit: {
        ...store.audit,
        recordPurchase: (purchase) =>
          refusing
            ? Promise.reject(new Error("connection terminated"))
            : store.audit.recordPurchase(purchase),
      },
    },
  });
  const first = queue.buy("ann@example.com", "energy_price", "series_values", [item("976-1-1")]);
  timer.flush();
  await settle();
  upstream.calls[0]?.answer(ok(["976-1-1"]));
  const written = (await first).get(item("976-1-1").key);
  expect(written).toMatchObject({ kind: "answer", source: "purchase" });
  expect(written !== undefined && "auditWaiting" in written).toBe(false);

  refusing = true;
  const second = queue.buy("bob@example.com", "energy_price", "series_values", [item("977-1-1")]);
  timer.flush();
  await settle();
  upstream.calls[1]?.answer(ok(["977-1-1"]));
  await second;
  await queue.stop();
  expect(lost.map((purchase) => purchase.codes)).toEqual([
    [{ key: item("977-1-1").key, code: "977-1-1", dataset: "Germany", member: "bob@example.com" }],
  ]);
  expect(store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.code))).toEqual(["976-1-1"]);
});

test("when the service's rate gives no turn (its limiter failed), every waiting key fails with the gateway's 502 naming the cause", async () => {
  queue = queueWith({
    upstream: { ...upstream, turn: () => Promise.reject(new Error("the rate limiter could not load")) },
  });
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", [
    item("980-1-1"),
    item("981-1-1"),
  ]);
  timer.flush();
  await settle();
  const outcomes = await bought;
  expect(
    [...outcomes.values()].map((outcome) =>
      outcome.kind === "failed" ? outcome.answer.status : outcome.kind,
    ),
  ).toEqual([502, 502]);
  const failed = outcomes.get(item("980-1-1").key);
  expect(failed?.kind === "failed" ? failed.answer.body : "").toContain("the rate limiter could not load");
  expect(upstream.calls).toHaveLength(0);
});

test("a member's keys of another group keep a part-filled call waiting: the burst is one", async () => {
  const asked = [queue.buy("ann@example.com", "energy_price", "series_values", [item("970-1-1")])];
  // History keys keep coming every 8 ms: the Values call waits with them, up to its longest wait.
  for (let index = 0; index < 4; index += 1) {
    timer.advance(8);
    await settle();
    asked.push(
      queue.buy("bob@example.com", "energy_price", "series_hist", [
        { ...item(`${971 + index}-1-1`), key: `hist|${971 + index}` },
      ]),
    );
  }
  await settle();
  expect(upstream.calls).toHaveLength(0);
  timer.advance(10);
  await settle();
  expect(upstream.calls.map((call) => `${call.path.split("/")[4]}:${call.codes.length}`).sort()).toEqual([
    "series:1",
    "series_hist:4",
  ]);
  for (const call of upstream.calls) call.answer(ok(call.codes));
  await Promise.all(asked);
});

test("the calendar clock jumping back does not hold a call: waits are measured on a monotonic clock", async () => {
  let calendar = START;
  queue = queueWith({ now: () => calendar });
  const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("990-1-1")]);
  calendar -= 30 * 24 * 3_600_000;
  timer.advance(10);
  await settle();
  expect(upstream.calls.map((call) => call.codes)).toEqual([["990-1-1"]]);
  upstream.calls[0]?.answer(ok(["990-1-1"]));
  await bought;
});

describe("the queue's stop: no call goes out any more, and the calls out are waited for", () => {
  /** Whether the promise has settled once the queue's awaited work has run (it needs no timer). */
  const settledNow = async <T>(promise: Promise<T>): Promise<boolean> => {
    let done = false;
    void promise.then(() => (done = true));
    await settle();
    return done;
  };
  const statusOf = (outcome: PurchaseOutcome | undefined): number | string =>
    outcome?.kind === "failed" ? outcome.answer.status : (outcome?.kind ?? "none");

  test("a purchase whose call is out when the stop comes is audited before the stop ends", async () => {
    const cutOff: Purchase[] = [];
    queue = queueWith({ events: { cutOff: (calls) => cutOff.push(...calls) } });
    const bought = queue.buy("ann@example.com", "energy_price", "series_hist", [item("600-1-1")]);
    timer.flush();
    await settle();
    expect(upstream.calls).toHaveLength(1);
    const stopped = queue.stop();
    expect(await settledNow(stopped)).toBe(false);
    expect(store.purchases).toEqual([]);

    upstream.calls[0]?.answer(ok(["600-1-1"]));
    await stopped;
    expect(store.purchases.flatMap((purchase) => purchase.codes)).toEqual([
      { key: item("600-1-1").key, code: "600-1-1", dataset: "Germany", member: "ann@example.com" },
    ]);
    expect((await bought).get(item("600-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
    expect(cutOff).toEqual([]);
  });

  test("a call still out when the stop's wait is over is reported as the row it would have had, and the stop ends", async () => {
    const cutOff: Purchase[] = [];
    queue = queueWith({ events: { cutOff: (calls) => cutOff.push(...calls) } });
    const asked = [
      queue.buy("ann@example.com", "energy_price", "series_hist", [item("601-1-1")]),
      queue.buy("bob@example.com", "energy_price", "series_hist", [item("602-1-1", { dataset: "France" })]),
    ];
    timer.flush();
    await settle();
    expect(upstream.calls.map((call) => call.codes)).toEqual([["601-1-1", "602-1-1"]]);
    const sentAt = new Date(timer.now());
    const stopped = queue.stop();
    timer.advance(STOP_WAIT_MS - 1);
    expect(await settledNow(stopped)).toBe(false);
    expect(cutOff).toEqual([]);

    timer.advance(1);
    await stopped;
    expect(cutOff).toEqual([
      {
        at: sentAt,
        product: "energy_price",
        operation: "series_hist",
        codes: [
          { key: item("601-1-1").key, code: "601-1-1", dataset: "Germany", member: "ann@example.com" },
          { key: item("602-1-1").key, code: "602-1-1", dataset: "France", member: "bob@example.com" },
        ],
      },
    ]);
    upstream.calls[0]?.fail(new TypeError("fetch failed"));
    await Promise.all(asked);
  });

  test.each<[string, () => Promise<{ bought: Promise<Map<string, PurchaseOutcome>> }>]>([
    [
      "waiting for company in a part-filled call",
      async () => {
        const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("610-1-1")]);
        await queue.stop();
        return { bought };
      },
    ],
    [
      "asked after the stop",
      async () => {
        await queue.stop();
        return { bought: queue.buy("ann@example.com", "energy_price", "series_values", [item("610-1-1")]) };
      },
    ],
    [
      "waiting for its turn at the service's rate",
      async () => {
        upstream = heldUpstream({ heldTurns: true });
        queue = queueWith();
        const bought = queue.buy("ann@example.com", "energy_price", "series_values", [item("610-1-1")]);
        timer.flush();
        await settle();
        expect(upstream.turns).toHaveLength(1);
        await queue.stop();
        upstream.turns.shift()?.();
        return { bought };
      },
    ],
  ])("a key %s gets the gateway's 503 at once, and no call goes out for it", async (_case, ask) => {
    const { bought } = await ask();
    expect(await settledNow(bought)).toBe(true);
    expect([...(await bought).values()].map(statusOf)).toEqual([503]);
    timer.flush();
    await settle();
    expect(upstream.calls).toEqual([]);
    expect(store.purchases).toEqual([]);
  });

  test("a purchase waiting for an earlier call of its key is waited for, and sends nothing once that call ends", async () => {
    const first = queue.buy("ann@example.com", "energy_price", "series_values", [
      item("620-1-1", { fingerprint: "2026-11-04|2026-10-01" }),
    ]);
    timer.flush();
    await settle();
    const second = queue.buy("bob@example.com", "energy_price", "series_values", [
      item("620-1-1", { fingerprint: "2026-11-10|2026-11-01" }),
    ]);
    timer.flush();
    await settle();
    expect(upstream.calls).toHaveLength(1);
    const stopped = queue.stop();
    expect(await settledNow(stopped)).toBe(false);

    upstream.calls[0]?.answer(ok(["620-1-1"]));
    await stopped;
    expect(upstream.calls).toHaveLength(1);
    expect((await first).get(item("620-1-1").key)).toMatchObject({ kind: "answer", source: "purchase" });
    expect([...(await second).values()].map(statusOf)).toEqual([503]);
    expect(store.purchases.flatMap((purchase) => purchase.codes.map((code) => code.member))).toEqual([
      "ann@example.com",
    ]);
  });
});

// A dataset the service refused for its allowance: every request for one of its keys would send
// a call the service refuses again (each one of its daily quota), so the refusal answers them for
// a while, in that product only; after it, the next request asks the service again.
describe("a dataset refused for its allowance", () => {
  const refusedFor = (dataset: string | null): UpstreamAnswer => ({
    status: 403,
    body: JSON.stringify({
      message: `Quota limit reached${dataset === null ? "" : ` for dataset '${dataset}'`}: the service refused the gateway's Series Values call (HTTP 403).`,
    }),
    contentType: "application/json",
    retryAfter: null,
    refusal: { kind: "quota", dataset },
  });
  const inProduct = (product: ProductId, code: string, dataset: string): PurchaseItem => ({
    ...item(code, { dataset }),
    key: answerKey(product, "series_values", { code, currency: "", unit: "" }),
  });
  /** One request, settled: the calls it sent and what it got. */
  const ask = async (product: ProductId, asked: PurchaseItem, reply: UpstreamAnswer) => {
    const before = upstream.calls.length;
    const outcome = queue.buy("ann@example.com", product, "series_values", [asked]);
    timer.flush();
    await settle();
    for (const call of upstream.calls.slice(before)) call.answer(reply);
    return { calls: upstream.calls.length - before, outcome: (await outcome).get(asked.key) };
  };

  test.each<[string, UpstreamAnswer, ProductId, string, number, number]>([
    [
      "another key of the dataset named, at once: the refusal, no call",
      refusedFor("France"),
      "energy_price",
      "France",
      0,
      0,
    ],
    [
      "the dataset of the only code, unnamed: the refusal, no call",
      refusedFor(null),
      "energy_price",
      "France",
      0,
      0,
    ],
    ["another dataset: bought", refusedFor("France"), "energy_price", "Germany", 0, 1],
    [
      "the same dataset name in another product: bought",
      refusedFor("France"),
      "industry_economics",
      "France",
      0,
      1,
    ],
    [
      "the dataset after five minutes: asked again",
      refusedFor("France"),
      "energy_price",
      "France",
      QUOTA_REFUSED_STANDS_MS,
      1,
    ],
  ])("%s", async (_case, refusal, product, dataset, later, calls) => {
    const first = await ask("energy_price", inProduct("energy_price", "200-1-1", "France"), refusal);
    expect(first).toEqual({ calls: 1, outcome: { kind: "failed", answer: refusal } });
    timer.advance(later);
    const next = await ask(product, inProduct(product, "201-1-1", dataset), ok(["201-1-1"]));
    expect(next.calls).toBe(calls);
    expect(next.outcome).toEqual(
      calls === 0 ? { kind: "failed", answer: refusal } : expect.objectContaining({ kind: "answer" }),
    );
  });
});
