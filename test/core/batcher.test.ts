import { Batcher, type BatchGate, type BatchItem } from "../../src/core/batcher";
import { PcdError } from "../../src/core/errors";
import type { DataType, ProductId } from "../../src/core/model";
import type { SendSlot, SeriesAnswer, ServiceClient } from "../../src/core/service-client";
import { FakeService } from "./support/fake-service";
import { seriesInfo } from "./support/series-fixtures";

function item(code: string, options: Partial<BatchItem> = {}): BatchItem {
  const currencyId = options.request?.currencyId ?? null;
  const product: ProductId = options.product ?? "energy_price";
  return {
    key: `live|${product}|${code}|${currencyId ?? "default"}|default`,
    environment: "live",
    product,
    dataType: "energy",
    dataset: "Germany",
    request: { code, currencyId, unitId: null },
    ...options,
  };
}

function codes(count: number, prefix = 100): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix + i}-1-1`);
}

function serviceWith(
  codeList: string[],
  product: ProductId = "energy_price",
  dataType?: DataType,
): FakeService {
  const service = new FakeService();
  service.addSeries(
    ...codeList.map((code) => seriesInfo({ code, product, ...(dataType ? { dataType } : {}) })),
  );
  return service;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe("Batcher", () => {
  test("41 codes -> 2 calls: a full call at once, the rest after the idle window", async () => {
    const list = codes(41);
    const service = serviceWith(list);
    const batcher = new Batcher({ client: service });
    const results = list.map((code) => batcher.fetch("series_values", item(code)));
    await jest.advanceTimersByTimeAsync(0);
    expect(service.dataCalls()).toHaveLength(1);
    expect(service.dataCalls()[0]?.codes).toHaveLength(40);
    await jest.advanceTimersByTimeAsync(20);
    expect(service.dataCalls()).toHaveLength(2);
    const answers = await Promise.all(results);
    expect(answers.map((answer) => answer.code)).toEqual(list);
  });

  test("identical keys share one promise and one code in the call", async () => {
    const service = serviceWith(["1-1-1"]);
    const batcher = new Batcher({ client: service });
    const first = batcher.fetch("series_values", item("1-1-1"));
    const second = batcher.fetch("series_values", item("1-1-1"));
    expect(second).toBe(first);
    await jest.advanceTimersByTimeAsync(20);
    await first;
    expect(service.dataCalls()).toHaveLength(1);
    expect(service.codesSent()).toBe(1);
  });

  test("a key already in flight is not requested again", async () => {
    const service = serviceWith(["1-1-1"]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      seriesValues: async (...args: Parameters<FakeService["seriesValues"]>) => {
        await gate;
        return service.seriesValues(...args);
      },
      seriesHistory: service.seriesHistory.bind(service),
    };
    const batcher = new Batcher({ client: slow });
    const first = batcher.fetch("series_values", item("1-1-1"));
    await jest.advanceTimersByTimeAsync(20);
    const again = batcher.fetch("series_values", item("1-1-1"));
    await jest.advanceTimersByTimeAsync(20);
    release();
    await Promise.all([first, again]);
    expect(again).toBe(first);
    expect(service.codesSent()).toBe(1);
  });

  test("the same code with two currencies goes to two calls", async () => {
    const service = serviceWith(["1-1-1"]);
    const batcher = new Batcher({ client: service });
    const euro = batcher.fetch("series_values", item("1-1-1"));
    const dollar = batcher.fetch(
      "series_values",
      item("1-1-1", { request: { code: "1-1-1", currencyId: 1, unitId: null } }),
    );
    await jest.advanceTimersByTimeAsync(20);
    const [a, b] = await Promise.all([euro, dollar]);
    expect(service.dataCalls().map((call) => call.codes.map((c) => c.currencyId))).toEqual([[null], [1]]);
    expect(a.finals.valueAt(0)).not.toBe(b.finals.valueAt(0));
  });

  test("groups by product, data type and operation", async () => {
    const service = new FakeService();
    service.addSeries(
      seriesInfo({ code: "1-1-1" }),
      seriesInfo({ code: "2-2-2", product: "industry_economics" }),
    );
    service.addSeries(seriesInfo({ code: "3-3-3", product: "industry_economics", dataType: "cost_index" }));
    const batcher = new Batcher({ client: service });
    const all = [
      batcher.fetch("series_values", item("1-1-1")),
      batcher.fetch("series_hist", item("1-1-1")),
      batcher.fetch("series_values", item("2-2-2", { product: "industry_economics", dataType: "utilities" })),
      batcher.fetch(
        "series_values",
        item("3-3-3", { product: "industry_economics", dataType: "cost_index" }),
      ),
    ];
    await jest.advanceTimersByTimeAsync(20);
    await Promise.all(all);
    expect(
      service
        .dataCalls()
        .map((call) => `${call.operation}:${call.product}:${call.codes.length}`)
        .sort(),
    ).toEqual([
      "series_hist:energy_price:1",
      "series_values:energy_price:1",
      "series_values:industry_economics:1",
      "series_values:industry_economics:1",
    ]);
  });

  test("the idle window restarts on each enqueue but never exceeds the maximum wait", async () => {
    const list = codes(30);
    const service = serviceWith(list);
    const batcher = new Batcher({ client: service, windowMs: 20, maxWaitMs: 200 });
    const pending: Promise<unknown>[] = [];
    for (const code of list) {
      pending.push(batcher.fetch("series_values", item(code)));
      await jest.advanceTimersByTimeAsync(10);
    }
    // 30 enqueues 10 ms apart: the window never elapses, the 200 ms cap does.
    expect(service.dataCalls()).toHaveLength(1);
    expect(service.dataCalls()[0]?.codes).toHaveLength(20);
    await jest.advanceTimersByTimeAsync(20);
    await Promise.all(pending);
    expect(service.dataCalls()).toHaveLength(2);
  });

  test("a code missing from the answer fails alone", async () => {
    const service = serviceWith(["1-1-1", "2-2-2"]);
    service.missing.add("2-2-2");
    const batcher = new Batcher({ client: service });
    const ok = batcher.fetch("series_values", item("1-1-1"));
    const missing = batcher.fetch("series_values", item("2-2-2"));
    await jest.advanceTimersByTimeAsync(20);
    await expect(ok).resolves.toMatchObject({ code: "1-1-1" });
    await expect(missing).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringContaining("The service returned no data for 2-2-2"),
      // The service charged the code with the call's others.
      details: { charged: true },
    });
    expect(batcher.codesCharged()).toBe(2);
  });

  test("a code whose record the client refused fails alone, with the client's error", async () => {
    const service = serviceWith(["1-1-1", "2-2-2"]);
    const refused = new PcdError(
      "protocol",
      "The service sent a final value for 9999-12 for 2-2-2, a month in the future",
    );
    const client: Pick<ServiceClient, "seriesValues" | "seriesHistory"> = {
      seriesValues: async (environment, product, requests) => {
        const answer: SeriesAnswer = await service.seriesValues(environment, product, requests);
        answer.set("2-2-2", refused);
        return answer;
      },
      seriesHistory: (environment, product, requests) =>
        service.seriesHistory(environment, product, requests),
    };
    const batcher = new Batcher({ client });
    const ok = batcher.fetch("series_values", item("1-1-1"));
    const future = batcher.fetch("series_values", item("2-2-2"));
    await jest.advanceTimersByTimeAsync(20);
    await expect(ok).resolves.toMatchObject({ code: "1-1-1" });
    await expect(future).rejects.toMatchObject({
      kind: "protocol",
      message: refused.message,
      details: { charged: true },
    });
  });

  // How a failed call's codes are accounted: [failure, gate's call, charged, unconfirmed].
  test.each<[string, PcdError, "confirm" | "refund" | "unanswered", number, number]>([
    [
      "a success answer PCD could not read",
      new PcdError("protocol", "The Series Values answer was not valid JSON (HTTP 200, 9 characters).", {
        status: 200,
        charged: true,
      }),
      "confirm",
      1,
      0,
    ],
    [
      "an error answer",
      new PcdError("server", "HTTP 500 from Series Values", { status: 500 }),
      "refund",
      0,
      0,
    ],
    ["no answer", new PcdError("network", "The service could not be reached."), "unanswered", 0, 1],
    [
      "a call that never left",
      new PcdError("network", "PCD could not load its code that reads the service's answers.", {
        notSent: true,
      }),
      "refund",
      0,
      0,
    ],
  ])("%s: the gate hears %s", async (_name, failure, heard, charged, unconfirmed) => {
    const service = serviceWith(["1-1-1"]);
    service.failWith(() => failure);
    const calls: string[] = [];
    const gate: BatchGate = {
      admit: async (items) => ({ admitted: [...items], refused: [] }),
      refund: () => calls.push("refund"),
      confirm: () => calls.push("confirm"),
      unanswered: () => calls.push("unanswered"),
      quotaRefused: (_items, error) => () => error,
    };
    const batcher = new Batcher({ client: service, gate });
    const result = batcher.fetch("series_values", item("1-1-1"));
    await jest.advanceTimersByTimeAsync(20);
    await expect(result).rejects.toBe(failure);
    expect(calls).toEqual([heard]);
    expect(batcher.codesCharged()).toBe(charged);
    expect(batcher.codesUnconfirmed()).toBe(unconfirmed);
  });

  test("a failing call rejects its codes with the service's error", async () => {
    const service = serviceWith(["1-1-1"]);
    service.failWith(() => new PcdError("server", "HTTP 500 from Series Values"));
    const batcher = new Batcher({ client: service });
    const result = batcher.fetch("series_values", item("1-1-1"));
    await jest.advanceTimersByTimeAsync(20);
    await expect(result).rejects.toMatchObject({ kind: "server" });
  });

  test("an industry economics call rejected for mixed types is split, not failed", async () => {
    const utilities = codes(3, 100);
    const indexes = codes(2, 200);
    const service = new FakeService();
    service.addSeries(...utilities.map((code) => seriesInfo({ code, product: "industry_economics" })));
    service.addSeries(
      ...indexes.map((code) => seriesInfo({ code, product: "industry_economics", dataType: "cost_index" })),
    );
    service.failWith((call) => {
      const kinds = new Set(call.codes.map((c) => service.info(c.code)?.dataType));
      return call.operation === "series_values" && kinds.size > 1
        ? new PcdError("bad_request", "A call may contain codes of one data type only", {
            serverMessage: "mixed data types",
          })
        : undefined;
    });
    const refunds: number[] = [];
    const gate: BatchGate = {
      admit: async (items) => ({ admitted: [...items], refused: [] }),
      refund: (items) => refunds.push(items.length),
      quotaRefused: (_items, error) => () => error,
    };
    // The batcher is told all five are utilities (a wrong derivation).
    const batcher = new Batcher({ client: service, gate });
    const all = [...utilities, ...indexes].map((code) =>
      batcher.fetch("series_values", item(code, { product: "industry_economics", dataType: "utilities" })),
    );
    await jest.advanceTimersByTimeAsync(20);
    const answers = await Promise.all(all);
    expect(answers).toHaveLength(5);
    expect(refunds.length).toBeGreaterThan(0);
    expect(batcher.codesSent()).toBe(5);
  });

  // A team gateway in downtime refuses a call whole for one code it does not keep: halving finds
  // every code it keeps. A row per setting: split or not, and how many codes it lacks.
  test.each<[string, boolean, string[], number]>([
    ["one code lacking, split", true, ["107-1-1"], 9],
    ["two codes lacking, one in each half, split", true, ["100-1-1", "115-1-1"], 15],
    ["every code lacking, split", true, codes(16), 31],
    ["one code lacking, not split (the service itself)", false, ["107-1-1"], 1],
  ])("a call refused as unavailable: %s", async (_case, split, lacking, calls) => {
    const list = codes(16);
    const service = serviceWith(list);
    const downtime = new PcdError("unavailable", "The service is down for maintenance.", { status: 503 });
    service.failWith((call) => (call.codes.some((c) => lacking.includes(c.code)) ? downtime : undefined));
    const refunded: number[] = [];
    const gate: BatchGate = {
      admit: async (items) => ({ admitted: [...items], refused: [] }),
      refund: (items) => refunded.push(items.length),
      quotaRefused: (_items, error) => () => error,
    };
    const batcher = new Batcher({ client: service, gate, splitWhenUnavailable: () => split });
    const results = list.map((code) =>
      batcher.fetch("series_values", item(code)).then(
        () => "served",
        (error: PcdError) => error.kind,
      ),
    );
    await jest.advanceTimersByTimeAsync(20);
    const outcomes = await Promise.all(results);
    expect(outcomes.filter((outcome) => outcome === "unavailable")).toHaveLength(split ? lacking.length : 16);
    if (split) expect(outcomes.filter((outcome) => outcome === "served")).toHaveLength(16 - lacking.length);
    // Halving ends at single codes: at most 2n - 1 calls for n codes.
    expect(service.dataCalls()).toHaveLength(calls);
    // A refused call charged nothing: its codes went back before being sent again.
    expect(batcher.codesCharged()).toBe(split ? 16 - lacking.length : 0);
    expect(refunded.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
  });

  test("the gate's refusals fail locally and only admitted codes are sent", async () => {
    const service = serviceWith(["1-1-1", "2-2-2"]);
    const refusal = new PcdError("quota", "Monthly allowance used up for dataset 'France'", {
      dataset: "France",
    });
    const gate: BatchGate = {
      admit: async (items) => ({
        admitted: items.filter((i) => i.dataset !== "France"),
        refused: items.filter((i) => i.dataset === "France").map((i) => ({ item: i, error: refusal })),
      }),
      refund: () => undefined,
      quotaRefused: (_items, error) => () => error,
    };
    const batcher = new Batcher({ client: service, gate });
    const germany = batcher.fetch("series_values", item("1-1-1"));
    const france = batcher.fetch("series_values", item("2-2-2", { dataset: "France" }));
    await jest.advanceTimersByTimeAsync(20);
    await expect(germany).resolves.toMatchObject({ code: "1-1-1" });
    await expect(france).rejects.toBe(refusal);
    expect(service.dataCalls()[0]?.codes.map((c) => c.code)).toEqual(["1-1-1"]);
  });

  test("after a quota refusal naming one dataset, the other datasets are sent again", async () => {
    const service = serviceWith(["1-1-1", "2-2-2"]);
    service.failWith((call) =>
      call.codes.some((c) => c.code === "2-2-2")
        ? new PcdError("quota", "Quota limit reached for France", { dataset: "France" })
        : undefined,
    );
    const blocked = new PcdError("quota", "Monthly allowance used up for dataset 'France'", {
      dataset: "France",
    });
    const gate: BatchGate = {
      admit: async (items) => ({ admitted: [...items], refused: [] }),
      refund: () => undefined,
      quotaRefused: () => (i) => (i.dataset === "France" ? blocked : "retry"),
    };
    const batcher = new Batcher({ client: service, gate });
    const germany = batcher.fetch("series_values", item("1-1-1"));
    const france = batcher.fetch("series_values", item("2-2-2", { dataset: "France" }));
    await jest.advanceTimersByTimeAsync(20);
    await expect(germany).resolves.toMatchObject({ code: "1-1-1" });
    await expect(france).rejects.toBe(blocked);
    expect(service.dataCalls().map((call) => call.codes.length)).toEqual([2, 1]);
  });

  test("idle() resolves once nothing is queued or in flight", async () => {
    const service = serviceWith(["1-1-1"]);
    const batcher = new Batcher({ client: service });
    await expect(batcher.idle()).resolves.toBeUndefined();
    let settled = false;
    const result = batcher.fetch("series_values", item("1-1-1"));
    const idle = batcher.idle().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(20);
    await idle;
    await result;
    expect(batcher.isIdle()).toBe(true);
  });

  test("a gate callback that throws fails the call's codes instead of leaving them waiting", async () => {
    const service = serviceWith(["1-1-1", "2-2-2"]);
    service.failWith(() => new PcdError("quota", "Quota limit reached"));
    const gate: BatchGate = {
      admit: async (items) => ({ admitted: [...items], refused: [] }),
      refund: () => undefined,
      quotaRefused: () => {
        throw new TypeError("ledger broken");
      },
    };
    const batcher = new Batcher({ client: service, gate });
    const results = ["1-1-1", "2-2-2"].map((code) => batcher.fetch("series_values", item(code)));
    const failed = Promise.all(
      results.map((result) => expect(result).rejects.toThrow("Unexpected failure: ledger broken")),
    );
    await jest.advanceTimersByTimeAsync(20);
    await failed;
    expect(batcher.isIdle()).toBe(true);
  });

  describe("late binding: codes are chosen when the send slot is granted", () => {
    /** A client whose send slots are granted one by one by the test, like a busy rate gate. */
    function slottedClient(service: FakeService) {
      const waiting: Array<() => void> = [];
      let held = 0;
      const slot = (): SendSlot => {
        let open = true;
        const free = (): void => {
          if (open) held -= 1;
          open = false;
        };
        return {
          run: async (attempt) => {
            try {
              return await attempt();
            } finally {
              free();
            }
          },
          release: free,
        };
      };
      return {
        client: {
          seriesValues: service.seriesValues.bind(service),
          seriesHistory: service.seriesHistory.bind(service),
          reserveSlot: () =>
            new Promise<SendSlot>((granted) =>
              waiting.push(() => {
                held += 1;
                granted(slot());
              }),
            ),
        },
        grantAll: async (): Promise<void> => {
          while (waiting.length > 0) {
            waiting.shift()?.();
            await jest.advanceTimersByTimeAsync(0);
          }
        },
        asked: (): number => waiting.length,
        held: (): number => held,
      };
    }

    test("repeats that arrive while full calls wait for slots still fit in the fewest calls", async () => {
      const list = codes(200);
      const service = serviceWith(list);
      const slotted = slottedClient(service);
      const batcher = new Batcher({ client: slotted.client });
      const euros = list.map((code) => batcher.fetch("series_values", item(code)));
      await jest.advanceTimersByTimeAsync(0);
      // Five full calls are asked for at once; none has left yet.
      expect(slotted.asked()).toBe(5);
      expect(service.dataCalls()).toHaveLength(0);
      // 18 series asked again in dollars before the gate grants the first slot.
      const dollars = list
        .slice(0, 18)
        .map((code) =>
          batcher.fetch("series_values", item(code, { request: { code, currencyId: 1, unitId: null } })),
        );
      await jest.advanceTimersByTimeAsync(20);
      await slotted.grantAll();
      await Promise.all([...euros, ...dollars]);
      // 218 requests: ceil(218 / 40) = 6 calls (binding at queue time sent 40 x 5, 18, 18).
      expect(service.dataCalls().map((call) => call.codes.length)).toEqual([40, 40, 40, 40, 40, 18]);
      expect(service.codesSent()).toBe(218);
      expect(slotted.held()).toBe(0);
      expect(batcher.isIdle()).toBe(true);
    });

    test("a slot whose codes another call already took is released unused", async () => {
      const list = codes(41);
      const service = serviceWith(list);
      const slotted = slottedClient(service);
      const batcher = new Batcher({ client: slotted.client });
      const first = list.slice(0, 40).map((code) => batcher.fetch("series_values", item(code)));
      await jest.advanceTimersByTimeAsync(20);
      expect(slotted.asked()).toBe(1);
      const last = batcher.fetch("series_values", item(list[40] ?? ""));
      await jest.advanceTimersByTimeAsync(20);
      expect(slotted.asked()).toBe(2);
      await slotted.grantAll();
      await Promise.all([...first, last]);
      expect(service.dataCalls().map((call) => call.codes.length)).toEqual([40, 1]);
      expect(slotted.held()).toBe(0);
    });

    test("a gate whose allowance read fails rejects the call's codes and holds no slot", async () => {
      const service = serviceWith(["1-1-1"]);
      const slotted = slottedClient(service);
      const broken = new PcdError("network", "Data Limits could not be read");
      const gate: BatchGate = {
        prepare: () => Promise.reject(broken),
        admit: async (items) => ({ admitted: [...items], refused: [] }),
        refund: () => undefined,
        quotaRefused: (_items, error) => () => error,
      };
      const batcher = new Batcher({ client: slotted.client, gate });
      const result = batcher.fetch("series_values", item("1-1-1"));
      const failed = expect(result).rejects.toBe(broken);
      await jest.advanceTimersByTimeAsync(20);
      await failed;
      expect(slotted.asked()).toBe(0);
      expect(slotted.held()).toBe(0);
      expect(service.dataCalls()).toHaveLength(0);
      expect(batcher.isIdle()).toBe(true);
    });

    test("a call the gate refuses entirely releases its slot", async () => {
      const service = serviceWith(["1-1-1"]);
      const slotted = slottedClient(service);
      const refusal = new PcdError("quota", "Monthly allowance used up for dataset 'Germany'");
      const gate: BatchGate = {
        admit: async (items) => ({ admitted: [], refused: items.map((i) => ({ item: i, error: refusal })) }),
        refund: () => undefined,
        quotaRefused: (_items, error) => () => error,
      };
      const batcher = new Batcher({ client: slotted.client, gate });
      const result = batcher.fetch("series_values", item("1-1-1"));
      const refused = expect(result).rejects.toBe(refusal);
      await jest.advanceTimersByTimeAsync(20);
      await slotted.grantAll();
      await refused;
      expect(slotted.held()).toBe(0);
      expect(service.dataCalls()).toHaveLength(0);
    });
  });
});
