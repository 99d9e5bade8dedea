import { PcdError } from "../../../src/core/errors";
import {
  normalisePoints,
  parseDataLimits,
  parseSeriesInfoList,
  parseSeriesValuesList,
} from "../../../src/core/http/schemas";
import type { MemberBudget, SeriesValues } from "../../../src/core/model";
import { recordingLog } from "./fake-fetch";
import { seriesIn } from "../support/series-answer";

/** An answer's points as objects, to compare with tables written that way. */
function plainValues(values: SeriesValues | undefined): unknown {
  return values && { ...values, finals: values.finals.toPoints(), forecasts: values.forecasts.toPoints() };
}

function infoRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    area: "-",
    assessment: "Natural gas price, industrial, Germany",
    available_currencies: "EUR, USD,GBP",
    available_units: "MWh,kWh",
    code: "68520-8-1",
    commodity: "Natural gas",
    coverage: "Germany",
    default_currency: "EUR",
    default_unit: "MWh",
    details: "-",
    has_forecast: true,
    has_preliminary: "False",
    last_available_final: "2026-09-01",
    location: "Germany",
    product: "Energy Price",
    remark_1: "lag: 1",
    remark_2: "-",
    series_hist_changed: "True",
    specification: "Industrial tariff",
    updated_at: "2026-10-05",
    ...overrides,
  };
}

function valuesRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    assessment: "Natural gas price",
    code: "68520-8-1",
    coverage: "Germany",
    currency: "EUR",
    product: "Energy Price",
    remark_1: "lag: 1",
    remark_2: "-",
    series_final_values: [
      { date: "2026-09-01", value: 41.5 },
      { date: "2026-08-01", value: 40 },
    ],
    series_forecast_values: [{ date: "2026-10-01", value: 42 }],
    unit: "MWh",
    updated_at: "2026-10-05",
    ...overrides,
  };
}

describe("parseSeriesInfoList", () => {
  test("normalises a spec record and keeps every raw field", () => {
    const record = infoRecord({ incoterm: "FOB" });
    const [info] = parseSeriesInfoList([record], "energy_price");
    expect(info).toEqual({
      code: "68520-8-1",
      product: "energy_price",
      productName: "Energy Price",
      dataType: "energy",
      assessment: "Natural gas price, industrial, Germany",
      commodity: "Natural gas",
      coverage: "Germany",
      location: "Germany",
      area: null,
      details: null,
      specification: "Industrial tariff",
      remark1: "lag: 1",
      remark2: null,
      lag: 1,
      defaultCurrency: "EUR",
      defaultUnit: "MWh",
      availableCurrencies: ["EUR", "USD", "GBP"],
      availableUnits: ["MWh", "kWh"],
      hasForecast: true,
      hasPreliminary: false,
      seriesHistChanged: true,
      lastAvailableFinal: "2026-09",
      updatedAt: "2026-10-05",
      raw: record,
    });
    expect(info?.raw.area).toBe("-");
    expect(info?.raw.incoterm).toBe("FOB");
  });

  test.each<[string, unknown, boolean | null]>([
    ["JSON true", true, true],
    ["JSON false", false, false],
    ['"True"', "True", true],
    ['"False"', "False", false],
    ['"true"', "true", true],
    ['"false"', "false", false],
    ['"yes" (unknown, not false)', "yes", null],
    ["1 (unknown)", 1, null],
    ["null", null, null],
    ["missing", undefined, null],
  ])("has_forecast %s -> %p", (_name, value, expected) => {
    const [info] = parseSeriesInfoList([infoRecord({ has_forecast: value })], "energy_price");
    expect(info?.hasForecast).toBe(expected);
  });

  test.each<[string, unknown, string | null]>([
    ["-", "-", null],
    ["n/a", "n/a", null],
    ["N/A", "N/A", null],
    ["NA", "NA", null],
    ["empty", "", null],
    ["blank", "  ", null],
    ["text", " Rotterdam ", "Rotterdam"],
    ["number", 12, "12"],
    ["object", { a: 1 }, null],
  ])("area %s -> %p", (_name, value, expected) => {
    const [info] = parseSeriesInfoList([infoRecord({ area: value })], "energy_price");
    expect(info?.area).toBe(expected);
  });

  test.each<[unknown, string[]]>([
    ["EUR,USD", ["EUR", "USD"]],
    [" EUR , USD cent ,", ["EUR", "USD cent"]],
    ["-", []],
    ["", []],
    [null, []],
    [
      ["EUR", "-", "USD"],
      ["EUR", "USD"],
    ],
  ])("available_currencies %p -> %p", (value, expected) => {
    const [info] = parseSeriesInfoList([infoRecord({ available_currencies: value })], "energy_price");
    expect(info?.availableCurrencies).toEqual(expected);
  });

  test.each<[unknown, number | null]>([
    ["lag: 2", 2],
    ["Lag:0", 0],
    ["lag: x", null],
    ["-", null],
    [undefined, null],
  ])("remark_1 %p -> lag %p", (value, expected) => {
    const [info] = parseSeriesInfoList([infoRecord({ remark_1: value })], "energy_price");
    expect(info?.lag).toBe(expected);
  });

  test.each<[unknown, string | null]>([
    ["2026-09-01", "2026-09"],
    ["2026-09", "2026-09"],
    ["2026-09-01T00:00:00Z", "2026-09"],
    ["2026-13-01", null],
    ["September 2026", null],
    [20260901, null],
  ])("last_available_final %p -> %p", (value, expected) => {
    const [info] = parseSeriesInfoList([infoRecord({ last_available_final: value })], "energy_price");
    expect(info?.lastAvailableFinal).toBe(expected);
  });

  test("derives the data type of industry economics records", () => {
    const infos = parseSeriesInfoList(
      [
        infoRecord({ code: "1-1-1", commodity: "Electricity", product: "Industry Economics" }),
        infoRecord({ code: "2-1-1", commodity: "Location factor", product: "Industry Economics" }),
        infoRecord({
          code: "3-1-1",
          assessment: "Plant construction cost index",
          product: "Industry Economics",
        }),
      ],
      "industry_economics",
    );
    expect(infos.map((info) => info.dataType)).toEqual(["utilities", "location_factor", "cost_index"]);
  });

  test("skips bad records with a warning and keeps the rest of the catalog", () => {
    const { log, lines } = recordingLog();
    const infos = parseSeriesInfoList(
      [
        infoRecord({ code: "1-1-1" }),
        "not a record",
        null,
        infoRecord({ code: "68520-8" }),
        infoRecord({ code: 68520 }),
        infoRecord({ code: "2-2-2", coverage: "" }),
        infoRecord({ code: "3-3-3" }),
      ],
      "energy_price",
      log,
    );
    expect(infos.map((info) => info.code)).toEqual(["1-1-1", "3-3-3"]);
    expect(lines.filter((line) => line.level === "warn")).toHaveLength(5);
    expect(lines[2]?.message).toMatch(/record 3 skipped: code: code must be three hyphen-separated numbers/);
  });

  test.each([{}, "text", null, 42])("a non-array body %p is a protocol error naming Series Info", (body) => {
    expect(() => parseSeriesInfoList(body, "energy_price")).toThrow(PcdError);
    expect(() => parseSeriesInfoList(body, "energy_price")).toThrow(/Series Info answer was not a list/);
  });
});

describe("parseSeriesValuesList", () => {
  const requested = new Set(["68520-8-1", "912-5-2", "0912-5-2"]);

  describe("final values after the latest month that can have them", () => {
    const finalsUpTo = (code: string, last: string) =>
      valuesRecord({
        code,
        series_final_values: [
          { date: `${last}-01`, value: 99 },
          { date: "2026-08-01", value: 40 },
        ],
      });

    test.each([
      ["9999-12", "9999-12"],
      ["the month after the bound", "2026-11"],
    ])("up to %s: a protocol error for that code, saying so; the other code is read", (_name, last) => {
      const { log, lines } = recordingLog();
      const result = parseSeriesValuesList(
        [finalsUpTo("68520-8-1", last), finalsUpTo("912-5-2", "2026-10")],
        "series_values",
        requested,
        log,
        "2026-10",
      );
      const refused = result.get("68520-8-1");
      expect(refused).toBeInstanceOf(PcdError);
      expect(refused).toMatchObject({
        kind: "protocol",
        message: `The service sent a final value for ${last} for 68520-8-1, a month in the future (Series Values: the latest month with final values can be 2026-10); PCD did not use this answer.`,
      });
      expect(seriesIn(result, "912-5-2")?.finals.lastMonth()).toBe("2026-10");
      expect(lines.map((line) => line.message)).toContain((refused as PcdError).message);
    });

    test("History is held to the same bound", () => {
      const result = parseSeriesValuesList(
        [finalsUpTo("68520-8-1", "9999-12")],
        "series_hist",
        requested,
        undefined,
        "2026-10",
      );
      expect(result.get("68520-8-1")).toMatchObject({
        kind: "protocol",
        message: expect.stringContaining("(Series Values History:"),
      });
    });
  });

  test("normalises a spec record: newest-first arrays become oldest first", () => {
    const result = parseSeriesValuesList([valuesRecord()], "series_values", requested);
    expect(plainValues(seriesIn(result, "68520-8-1"))).toEqual({
      code: "68520-8-1",
      currency: "EUR",
      unit: "MWh",
      updatedAt: "2026-10-05",
      finals: [
        { month: "2026-08", value: 40 },
        { month: "2026-09", value: 41.5 },
      ],
      forecasts: [{ month: "2026-10", value: 42 }],
    });
  });

  test.each<[string, Array<{ date: string; value: number }>]>([
    [
      "oldest first",
      [
        { date: "2026-07-01", value: 1 },
        { date: "2026-08-01", value: 2 },
        { date: "2026-09-01", value: 3 },
      ],
    ],
    [
      "newest first",
      [
        { date: "2026-09-01", value: 3 },
        { date: "2026-08-01", value: 2 },
        { date: "2026-07-01", value: 1 },
      ],
    ],
    [
      "shuffled",
      [
        { date: "2026-08-01", value: 2 },
        { date: "2026-09-01", value: 3 },
        { date: "2026-07-01", value: 1 },
      ],
    ],
  ])("finals listed %s come out sorted", (_name, points) => {
    const result = parseSeriesValuesList(
      [valuesRecord({ series_final_values: points })],
      "series_values",
      requested,
    );
    expect(seriesIn(result, "68520-8-1")?.finals.toPoints()).toEqual([
      { month: "2026-07", value: 1 },
      { month: "2026-08", value: 2 },
      { month: "2026-09", value: 3 },
    ]);
  });

  test("duplicate dates keep the last one seen", () => {
    const result = parseSeriesValuesList(
      [
        valuesRecord({
          series_final_values: [
            { date: "2026-09-01", value: 1 },
            { date: "2026-08-01", value: 5 },
            { date: "2026-09-01", value: 2 },
          ],
        }),
      ],
      "series_values",
      requested,
    );
    expect(seriesIn(result, "68520-8-1")?.finals.toPoints()).toEqual([
      { month: "2026-08", value: 5 },
      { month: "2026-09", value: 2 },
    ]);
  });

  test.each([0, 1, 6, 9])("accepts %i forecast months", (count) => {
    const forecasts = Array.from({ length: count }, (_, i) => ({
      date: `2027-${String(i + 1).padStart(2, "0")}-01`,
      value: i,
    }));
    const result = parseSeriesValuesList(
      [valuesRecord({ series_forecast_values: forecasts })],
      "series_values",
      requested,
    );
    expect(seriesIn(result, "68520-8-1")?.forecasts.toPoints()).toHaveLength(count);
  });

  test.each<[string, unknown]>([
    ["missing", undefined],
    ["null", null],
  ])("forecasts %s mean no forecast", (_name, forecasts) => {
    const result = parseSeriesValuesList(
      [valuesRecord({ series_forecast_values: forecasts })],
      "series_values",
      requested,
    );
    expect(seriesIn(result, "68520-8-1")?.forecasts.toPoints()).toEqual([]);
  });

  test("numeric strings are numbers; markers in currency/unit become null", () => {
    const result = parseSeriesValuesList(
      [
        valuesRecord({
          series_final_values: [{ date: "2026-09-01", value: "-12.5" }],
          currency: "-",
          unit: "",
        }),
      ],
      "series_values",
      requested,
    );
    expect(plainValues(seriesIn(result, "68520-8-1"))).toMatchObject({
      currency: null,
      unit: null,
      finals: [{ month: "2026-09", value: -12.5 }],
    });
  });

  test("extra fields of real responses are ignored", () => {
    const result = parseSeriesValuesList(
      [
        valuesRecord({
          area: "-",
          details: "x",
          incoterm: "CIF",
          market_type: "spot",
          price_type: "avg",
          specification: "s",
        }),
      ],
      "series_values",
      requested,
    );
    expect(result.has("68520-8-1")).toBe(true);
  });

  test("a point's extra fields are ignored, and not carried into the series", () => {
    const result = parseSeriesValuesList(
      [valuesRecord({ series_final_values: [{ date: "2026-09-01", value: 3, flag: "P", note: null }] })],
      "series_values",
      requested,
    );
    expect(seriesIn(result, "68520-8-1")?.finals.toPoints()).toEqual([{ month: "2026-09", value: 3 }]);
  });

  test.each<[string, Record<string, unknown>]>([
    ["a null value", { series_final_values: [{ date: "2026-09-01", value: null }] }],
    ["a text value", { series_final_values: [{ date: "2026-09-01", value: "n/a" }] }],
    ["an infinite value", { series_final_values: [{ date: "2026-09-01", value: Infinity }] }],
    ["a bad date", { series_final_values: [{ date: "09/2026", value: 1 }] }],
    ["finals not an array", { series_final_values: "none" }],
    ["finals missing", { series_final_values: undefined }],
    ["a bad forecast", { series_forecast_values: [{ date: "2026-10-01" }] }],
    ["a bad code", { code: "68520" }],
  ])("a record with %s fails alone", (_name, overrides) => {
    const { log, lines } = recordingLog();
    const result = parseSeriesValuesList(
      [valuesRecord(overrides), valuesRecord({ code: "912-5-2" })],
      "series_hist",
      requested,
      log,
    );
    expect([...result.keys()]).toEqual(["912-5-2"]);
    expect(lines.filter((line) => line.level === "warn")).toHaveLength(1);
    expect(lines[0]?.message).toMatch(/^Series Values History: /);
  });

  test("matches by code, never by position, and ignores unrequested codes", () => {
    const result = parseSeriesValuesList(
      [
        valuesRecord({ code: "0912-5-2", currency: "USD" }),
        valuesRecord({ code: "999-9-9" }),
        valuesRecord({ code: "68520-8-1", currency: "EUR" }),
      ],
      "series_values",
      requested,
    );
    expect([...result.keys()].sort()).toEqual(["0912-5-2", "68520-8-1"]);
    expect(seriesIn(result, "0912-5-2")?.currency).toBe("USD");
    expect(seriesIn(result, "68520-8-1")?.currency).toBe("EUR");
    expect(result.has("912-5-2")).toBe(false);
  });

  test.each([{ data: [] }, "[]x", null])(
    "a non-array body %p is a protocol error naming the operation",
    (body) => {
      expect(() => parseSeriesValuesList(body, "series_values", requested)).toThrow(
        /Series Values answer was not a list/,
      );
    },
  );
});

describe("parseDataLimits", () => {
  test("maps datasets to remaining/total; names are opaque", () => {
    expect(
      parseDataLimits(
        {
          Germany: { remaining_requests: 480, total_requests: 500 },
          "Northwest Europe": { remaining_requests: "10", total_requests: "20", note: "x" },
        },
        "energy_price",
      ),
    ).toEqual({
      Germany: { remaining: 480, total: 500 },
      "Northwest Europe": { remaining: 10, total: 20 },
    });
  });

  test("a malformed entry is skipped with a warning", () => {
    const { log, lines } = recordingLog();
    expect(
      parseDataLimits(
        {
          Germany: { remaining_requests: 1, total_requests: 2 },
          Spain: { remaining_requests: "lots" },
          Italy: 5,
        },
        "energy_price",
        log,
      ),
    ).toEqual({ Germany: { remaining: 1, total: 2 } });
    expect(lines.map((line) => line.message)).toEqual([
      expect.stringContaining('dataset "Spain" skipped'),
      expect.stringContaining('dataset "Italy" skipped'),
    ]);
  });

  test.each([[[]], ["text"], [null]])("a body of %p is a protocol error", (body) => {
    expect(() => parseDataLimits(body, "energy_price")).toThrow(/Data Limits answer was not an object/);
  });
});

describe("parseDataLimits with a team gateway's member budget", () => {
  const TEAM = { remaining_requests: 480, total_requests: 500 };
  test.each<[string, Record<string, unknown>, MemberBudget | undefined, string | null]>([
    ["the service's answer: no member fields", {}, undefined, null],
    [
      "with when it resets",
      {
        member_budget: 100,
        member_remaining_requests: 37,
        member_budget_resets_at: "2026-12-03T12:00:00.000Z",
      },
      { budget: 100, remaining: 37, resetsAt: Date.UTC(2026, 11, 3, 12) },
      null,
    ],
    [
      "a reset that is not a time: the budget without it",
      { member_budget: 100, member_remaining_requests: 37, member_budget_resets_at: "at the release" },
      { budget: 100, remaining: 37 },
      "member_budget_resets_at ignored: not a time",
    ],
    [
      "a reset without its offset: the budget without it",
      { member_budget: 100, member_remaining_requests: 37, member_budget_resets_at: "2026-12-03T12:00:00" },
      { budget: 100, remaining: 37 },
      "member_budget_resets_at ignored: not a time",
    ],
    [
      "a reset with an offset",
      {
        member_budget: 100,
        member_remaining_requests: 37,
        member_budget_resets_at: "2026-12-03T06:00:00-06:00",
      },
      { budget: 100, remaining: 37, resetsAt: Date.UTC(2026, 11, 3, 12) },
      null,
    ],
    [
      "a reset that is a number: the budget without it",
      { member_budget: 100, member_remaining_requests: 37, member_budget_resets_at: 1796313600000 },
      { budget: 100, remaining: 37 },
      "member_budget_resets_at ignored: not a time",
    ],
    [
      "a reset of null: the budget without it",
      { member_budget: 100, member_remaining_requests: 37, member_budget_resets_at: null },
      { budget: 100, remaining: 37 },
      null,
    ],
    ["numbers", { member_budget: 100, member_remaining_requests: 37 }, { budget: 100, remaining: 37 }, null],
    [
      "numeric texts",
      { member_budget: " 100", member_remaining_requests: "0" },
      { budget: 100, remaining: 0 },
      null,
    ],
    [
      "a member without a budget (null)",
      { member_budget: null, member_remaining_requests: null },
      undefined,
      null,
    ],
    ["the budget alone", { member_budget: 100 }, undefined, "member budget ignored"],
    ["the remaining alone", { member_remaining_requests: 5 }, undefined, "member budget ignored"],
    [
      "a budget that is not a number",
      { member_budget: "lots", member_remaining_requests: 5 },
      undefined,
      "member budget ignored",
    ],
    [
      "a negative remaining",
      { member_budget: 100, member_remaining_requests: -1 },
      undefined,
      "member budget ignored",
    ],
    [
      "an infinite budget",
      { member_budget: "Infinity", member_remaining_requests: 5 },
      undefined,
      "member budget ignored",
    ],
    [
      "an object for a count",
      { member_budget: { n: 1 }, member_remaining_requests: 5 },
      undefined,
      "member budget ignored",
    ],
  ])("%s", (_name, fields, member, warned) => {
    const { log, lines } = recordingLog();
    const limits = parseDataLimits({ Germany: { ...TEAM, ...fields } }, "energy_price", log);
    // The team's allowance is read whatever the member fields hold.
    expect(limits).toEqual({ Germany: { remaining: 480, total: 500, ...(member ? { member } : {}) } });
    expect(lines.map((line) => line.message)).toEqual(
      warned === null ? [] : [expect.stringContaining(`dataset "Germany": ${warned}`)],
    );
  });

  test("datasets with and without a budget in one answer", () => {
    expect(
      parseDataLimits(
        {
          Germany: { ...TEAM, member_budget: 10, member_remaining_requests: 4 },
          France: { remaining_requests: 20, total_requests: 20 },
        },
        "energy_price",
      ),
    ).toEqual({
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 4 } },
      France: { remaining: 20, total: 20 },
    });
  });
});

describe("parseDataLimits with datasets named like Object's properties", () => {
  test("each is an own entry; the object's prototype is untouched", () => {
    const body = JSON.parse(
      '{"__proto__": {"remaining_requests": 1, "total_requests": 2}, "constructor": {"remaining_requests": 3, "total_requests": 4}}',
    ) as unknown;
    const limits = parseDataLimits(body, "energy_price");
    expect(Object.getPrototypeOf(limits)).toBe(Object.prototype);
    expect(Object.keys(limits).sort()).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(limits, "__proto__")?.value).toEqual({ remaining: 1, total: 2 });
    expect(limits.constructor).toEqual({ remaining: 3, total: 4 });
  });
});

describe("normalisePoints", () => {
  test.each<[string, Array<{ date: string; value: number }>, Array<{ month: string; value: number }>]>([
    ["nothing", [], []],
    ["one point", [{ date: "2026-01", value: 1 }], [{ month: "2026-01", value: 1 }]],
    [
      "oldest first already",
      [
        { date: "2025-12", value: 1 },
        { date: "2026-01", value: 2 },
        { date: "2026-03", value: 3 },
      ],
      [
        { month: "2025-12", value: 1 },
        { month: "2026-01", value: 2 },
        { month: "2026-03", value: 3 },
      ],
    ],
    [
      "newest first",
      [
        { date: "2026-02", value: 2 },
        { date: "2026-01", value: 1 },
      ],
      [
        { month: "2026-01", value: 1 },
        { month: "2026-02", value: 2 },
      ],
    ],
    [
      "newest first, as the service sends it",
      [
        { date: "2026-03", value: 3 },
        { date: "2026-01", value: 2 },
        { date: "2025-12", value: 1 },
      ],
      [
        { month: "2025-12", value: 1 },
        { month: "2026-01", value: 2 },
        { month: "2026-03", value: 3 },
      ],
    ],
    [
      "newest first with a month twice (the last one seen wins)",
      [
        { date: "2026-03", value: 3 },
        { date: "2026-02", value: 9 },
        { date: "2026-02", value: 2 },
        { date: "2026-01", value: 1 },
      ],
      [
        { month: "2026-01", value: 1 },
        { month: "2026-02", value: 2 },
        { month: "2026-03", value: 3 },
      ],
    ],
    [
      "shuffled",
      [
        { date: "2026-02", value: 2 },
        { date: "2026-03", value: 3 },
        { date: "2026-01", value: 1 },
      ],
      [
        { month: "2026-01", value: 1 },
        { month: "2026-02", value: 2 },
        { month: "2026-03", value: 3 },
      ],
    ],
    [
      "a month twice (the last one seen wins)",
      [
        { date: "2026-01", value: 1 },
        { date: "2026-02", value: 2 },
        { date: "2026-02", value: 3 },
      ],
      [
        { month: "2026-01", value: 1 },
        { month: "2026-02", value: 3 },
      ],
    ],
  ])("%s", (_case, points, expected) => {
    expect(normalisePoints(points).toPoints()).toEqual(expected);
  });
});
