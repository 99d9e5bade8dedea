import {
  callLatencyMs,
  coldBound,
  dataCallBound,
  largestCallCodes,
  minimumCalls,
  productsOf,
  rateLimitBoundMs,
  releaseBound,
  seriesChanged,
  warmBound,
  zeroCalls,
  type PlannedRequest,
} from "../../bench/bounds";
import type { DataType, Product } from "../../bench/catalog";
import { LATEST, WHOLE, type Reads } from "../../bench/needs";
import { codes, key, series } from "./fixtures";

describe("minimumCalls", () => {
  test.each([
    ["no codes", [], 0],
    ["one code", ["1-1-1"], 1],
    ["40 distinct codes fill one call", codes("1", 40), 1],
    ["41 distinct codes need two", codes("1", 41), 2],
    ["80 distinct codes need two", codes("1", 80), 2],
    ["81 distinct codes need three", codes("1", 81), 3],
    ["one code in three currencies needs three calls", ["1-1-1", "1-1-1", "1-1-1"], 3],
    ["a repeated code among 45 codes still fits two calls", [...codes("1", 44), "1-1-1"], 2],
    ["a code in three currencies among 50 codes needs three", [...codes("1", 48), "1-1-1", "1-1-1"], 3],
  ])("%s", (_name, input: string[], expected: number) => {
    expect(minimumCalls(input)).toBe(expected);
  });
});

describe("dataCallBound", () => {
  const planned = (
    count: number,
    prefix: string,
    product: Product,
    dataType: DataType,
    operation: PlannedRequest["operation"],
  ): PlannedRequest[] =>
    codes(prefix, count).map((code) => ({ key: key(code, product, dataType), operation }));

  // Hand-computed: energy 90 -> 3 history calls; commodity 40 -> 1; industry utilities 41 -> 2,
  // cost indexes 5 -> 1, location factors 1 -> 1 (types never share a call); values 10 -> 1.
  test.each([
    ["one product", [planned(90, "1", "energy_price", "energy", "series_hist")], 3, 0, 90],
    [
      "three products and three industry types",
      [
        planned(90, "1", "energy_price", "energy", "series_hist"),
        planned(40, "2", "commodity_price", "commodity", "series_hist"),
        planned(41, "3", "industry_economics", "utilities", "series_hist"),
        planned(5, "4", "industry_economics", "cost_index", "series_hist"),
        planned(1, "5", "industry_economics", "location_factor", "series_hist"),
      ],
      8,
      0,
      177,
    ],
    [
      "two operations of one product are separate groups",
      [
        planned(30, "1", "energy_price", "energy", "series_hist"),
        planned(10, "2", "energy_price", "energy", "series_values"),
      ],
      1,
      1,
      40,
    ],
  ])("%s", (_name, parts: PlannedRequest[][], hist: number, values: number, requests: number) => {
    const bound = dataCallBound(parts.flat());
    expect(bound.calls.series_hist).toBe(hist);
    expect(bound.calls.series_values).toBe(values);
    expect(bound.dataRequests).toBe(requests);
  });
});

describe("coldBound and warmBound", () => {
  test("a cold workbook of old months loads every key with History and adds the session's calls", () => {
    const keys = [
      key("1-1-1", "energy_price", "energy"),
      key("1-1-1", "energy_price", "energy", 1),
      key("2-1-1", "commodity_price", "commodity"),
    ];
    const bound = coldBound(keys, { signIns: 1, catalogs: 2 });
    expect(bound.calls).toEqual({ ...zeroCalls(), access_token: 1, series_info: 2, series_hist: 3 });
    expect(bound.dataRequests).toBe(3);
  });

  // What one key's cells read -> [History requests, Series Values requests] on each shape.
  test.each<[string, Reads, [number, number], [number, number]]>([
    ["a latest value", LATEST, [0, 1], [0, 1]],
    ["a table from a month inside the window", { from: "2026-01", to: null }, [0, 1], [0, 1]],
    ["a table from the window's first month", { from: "2025-10", to: null }, [0, 1], [0, 1]],
    ["a table from the month before it", { from: "2025-09", to: null }, [1, 1], [1, 0]],
    ["old months only", { from: "2010-01", to: "2010-12" }, [1, 0], [1, 0]],
    ["the whole series", WHOLE, [1, 1], [1, 0]],
  ])("cold, %s: real %j, spec %j", (_name, reads, real, spec) => {
    const keys = [key("1-1-1", "energy_price", "energy", null, reads)];
    for (const [shape, [history, values]] of [
      ["real", real],
      ["spec", spec],
    ] as const) {
      const bound = coldBound(keys, { signIns: 0, catalogs: 0 }, shape);
      expect([bound.calls.series_hist, bound.calls.series_values]).toEqual([history, values]);
      expect(bound.dataRequests).toBe(history + values);
    }
  });

  test("a warm recalculation needs no data call", () => {
    expect(warmBound({ signIns: 1, catalogs: 0 })).toEqual({
      calls: { ...zeroCalls(), access_token: 1 },
      dataRequests: 0,
      groups: [],
    });
  });
});

describe("releaseBound", () => {
  const before = new Map(
    ["1-1-1", "2-1-1", "3-1-1", "4-1-1"].map((code) => [code, series(code, "energy_price")] as const),
  );
  const after = new Map([
    ["1-1-1", series("1-1-1", "energy_price", { lastAvailableFinal: "2026-11-01", updatedAt: "2026-12-03" })],
    [
      "2-1-1",
      series("2-1-1", "energy_price", {
        lastAvailableFinal: "2026-11-01",
        updatedAt: "2026-12-03",
        seriesHistChanged: true,
      }),
    ],
    ["3-1-1", series("3-1-1", "energy_price")],
    ["4-1-1", series("4-1-1", "energy_price", { updatedAt: "2026-12-03" })],
  ]);

  test.each([
    ["new month", "1-1-1", true],
    ["revised history", "2-1-1", true],
    ["held back (nothing changed)", "3-1-1", false],
    ["new update date only", "4-1-1", true],
  ])("seriesChanged: %s", (_name, code, expected) => {
    expect(seriesChanged(before.get(code)!, after.get(code)!)).toBe(expected);
  });

  test("changed keys need Series Values, revised ones History too, unchanged ones nothing", () => {
    const keys = [
      key("1-1-1", "energy_price", "energy", null, WHOLE),
      key("1-1-1", "energy_price", "energy", 1, WHOLE),
      key("2-1-1", "energy_price", "energy", null, WHOLE),
      key("3-1-1", "energy_price", "energy", null, WHOLE),
      key("4-1-1", "energy_price", "energy", null, WHOLE),
    ];
    const bound = releaseBound(keys, before, after, { signIns: 0, catalogs: 1 });
    // 1-1-1 twice (two currencies -> two calls), 2-1-1 and 4-1-1 join them: 2 values calls;
    // 2-1-1's revised history: 1 History call.
    expect(bound.calls).toEqual({ ...zeroCalls(), series_info: 1, series_values: 2, series_hist: 1 });
    expect(bound.dataRequests).toBe(5);
  });

  // A key of 1-1-1 (one new month) or 2-1-1 (revised) read as: -> [History, Series Values].
  test.each<[string, string, Reads, [number, number]]>([
    ["new month, latest value", "1-1-1", LATEST, [0, 1]],
    ["new month, old months only: nothing new", "1-1-1", { from: "2010-01", to: "2010-12" }, [0, 0]],
    [
      "new month, a table from the old window's first month: still held",
      "1-1-1",
      { from: "2025-10", to: null },
      [0, 1],
    ],
    ["revised, latest value", "2-1-1", LATEST, [0, 1]],
    ["revised, old months only", "2-1-1", { from: "2010-01", to: "2010-12" }, [1, 0]],
    ["revised, whole series", "2-1-1", WHOLE, [1, 1]],
  ])("%s", (_name, code, reads, [history, values]) => {
    const bound = releaseBound([key(code, "energy_price", "energy", null, reads)], before, after, {
      signIns: 0,
      catalogs: 0,
    });
    expect([bound.calls.series_hist, bound.calls.series_values]).toEqual([history, values]);
  });

  test("a key missing from the Series Info is an error naming the code", () => {
    expect(() =>
      releaseBound([key("9-9-9", "energy_price", "energy")], before, after, { signIns: 0, catalogs: 1 }),
    ).toThrow("9-9-9");
  });
});

describe("rate-limit bound", () => {
  test.each([
    ["busiest operation 25 calls, 200 ms latency", { series_hist: 25, series_info: 3 }, 200, 2700],
    ["nothing to call: one latency", {}, 200, 200],
    ["10 calls at 10/s take a second", { series_values: 10 }, 0, 1000],
  ])("%s", (_name, calls, latency, expected) => {
    expect(rateLimitBoundMs({ ...zeroCalls(), ...calls }, latency)).toBe(expected);
  });

  test("latency of a call grows per code", () => {
    expect(callLatencyMs({ baseMs: 200, perCodeMs: 2 }, 40)).toBe(280);
  });

  test("largest call of a bound spreads each group's requests evenly over its calls", () => {
    const bound = coldBound(
      codes("1", 41).map((code) => key(code, "energy_price", "energy")),
      { signIns: 1, catalogs: 1 },
    );
    expect(largestCallCodes(bound)).toBe(21);
  });
});

test("productsOf counts the products of the codes a workbook names", () => {
  const byCode = new Map([
    ["1-1-1", series("1-1-1", "energy_price")],
    ["2-1-1", series("2-1-1", "energy_price")],
    ["3-1-1", series("3-1-1", "industry_economics")],
  ]);
  expect(productsOf(["1-1-1", "2-1-1"], byCode)).toBe(1);
  expect(productsOf(["1-1-1", "3-1-1", "unknown"], byCode)).toBe(2);
});
