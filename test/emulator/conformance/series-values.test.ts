// Conformance: Series Values and History (docs/service.md §2.2, §4.3, §4.4, §4.6, §4.7), conversion and
// the industry economics data-type rule, on the default (real) shape: History ends the
// month before the 13-month Series Values window and carries no forecasts, values records
// carry extra fields, "True"/"False" and "-". The spec's letter is in spec-shape.test.ts.
import {
  addMonths,
  EXTRA_VALUES_FIELDS,
  Harness,
  NOT_APPLICABLE,
  SPEC_VALUES_FIELDS,
  VALUES_WINDOW_MONTHS,
  type InfoRecord,
  type ValuesRecord,
} from "./harness";

let service: Harness;
let energy: InfoRecord[];
let commodity: InfoRecord[];
let industry: InfoRecord[];

beforeAll(async () => {
  service = await Harness.start();
  energy = (await service.get<InfoRecord[]>("/energy_price/v1/export/series")).body;
  commodity = (await service.get<InfoRecord[]>("/commodity_price/v1/export/series")).body;
  industry = (await service.get<InfoRecord[]>("/industry_economics/v1/export/series")).body;
});

afterAll(async () => {
  await service.close();
});

function pick(records: InfoRecord[], predicate: (record: InfoRecord) => boolean, what: string): InfoRecord {
  const found = records.find(predicate);
  if (found === undefined) throw new Error(`Test data has no ${what}`);
  return found;
}

const active = (record: InfoRecord): boolean => record.remark_2 === NOT_APPLICABLE;

async function values(product: string, segment: string, history = false): Promise<ValuesRecord[]> {
  const answer = await service.get<ValuesRecord[]>(
    `/${product}/v1/export/${history ? "series_hist" : "series"}/${segment}`,
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

async function remaining(product: string, dataset: string): Promise<number | undefined> {
  const answer = await service.get<Record<string, { remaining_requests: number }>>(
    `/${product}/v1/data_limits`,
  );
  return answer.body[dataset]?.remaining_requests;
}

describe("Series Values", () => {
  test("13 finals ending at last_available_final, newest first, then 6 forecasts; extra fields", async () => {
    const series = pick(energy, (r) => active(r) && r.has_forecast === "True", "forecast series");
    const [record] = await values("energy_price", series.code);
    expect(Object.keys(record ?? {}).sort()).toEqual([...SPEC_VALUES_FIELDS, ...EXTRA_VALUES_FIELDS].sort());
    for (const field of EXTRA_VALUES_FIELDS) expect(typeof record?.[field]).toBe("string");
    const finals = record?.series_final_values.map((point) => point.date);
    expect(finals).toEqual(Array.from({ length: 13 }, (_, i) => addMonths(series.last_available_final, -i)));
    const forecasts = record?.series_forecast_values.map((point) => point.date);
    expect(forecasts).toEqual(
      Array.from({ length: 6 }, (_, i) => addMonths(series.last_available_final, 6 - i)),
    );
    expect(record?.currency).toBe(series.default_currency);
    expect(record?.unit).toBe(series.default_unit);
    expect(record?.updated_at).toBe(series.updated_at);
    expect(
      record?.series_final_values.every((point) => typeof point.value === "number" && point.value > 0),
    ).toBe(true);
  });

  test("a series without forecasts has an empty forecast array", async () => {
    const series = pick(commodity, (r) => active(r) && r.has_forecast === "False", "series without forecast");
    const [record] = await values("commodity_price", series.code);
    expect(record?.series_forecast_values).toEqual([]);
  });

  test("values are deterministic for a seed", async () => {
    const other = await Harness.start({ seed: 1 });
    try {
      const code = commodity[5]?.code ?? "";
      const mine = await values("commodity_price", code);
      const theirs = (await other.get<ValuesRecord[]>(`/commodity_price/v1/export/series/${code}`)).body;
      expect(theirs).toEqual(mine);
    } finally {
      await other.close();
    }
  });

  test("magnitudes are realistic: Methanol in USD per metric ton in the hundreds", async () => {
    const series = pick(commodity, (r) => r.commodity === "Methanol" && active(r), "Methanol");
    const [record] = await values("commodity_price", `${series.code}&c=1&u=1`);
    const latest = record?.series_final_values[0]?.value ?? 0;
    expect(latest).toBeGreaterThan(100);
    expect(latest).toBeLessThan(2000);
  });
});

describe("Series Values History", () => {
  test("finals from 2007-01 to 13 months before last_available_final, newest first, no forecasts", async () => {
    const series = pick(
      energy,
      (r) => active(r) && r.has_forecast === "True" && r.last_available_final.startsWith("2026-"),
      "forecast series",
    );
    const [record] = await values("energy_price", series.code, true);
    const dates = record?.series_final_values.map((point) => point.date) ?? [];
    const last = addMonths(series.last_available_final, -VALUES_WINDOW_MONTHS);
    const months = Array.from({ length: dates.length }, (_, i) => addMonths(last, -i));
    expect(dates.at(-1)).toBe("2007-01-01");
    expect(dates).toEqual(months);
    expect(record?.series_forecast_values).toEqual([]);
    expect(Object.keys(record ?? {}).sort()).toEqual([...SPEC_VALUES_FIELDS, ...EXTRA_VALUES_FIELDS].sort());
  });

  test("a series that starts later starts its history there", async () => {
    const history = await values(
      "commodity_price",
      commodity
        .slice(0, 40)
        .map((r) => r.code)
        .join(","),
      true,
    );
    const starts = history.map((record) => record.series_final_values.at(-1)?.date);
    expect(starts.some((start) => start !== "2007-01-01")).toBe(true);
  });

  test.each([
    ["current series", (r: InfoRecord) => active(r) && r.remark_1 === "lag: 0"],
    ["lag-1 series", (r: InfoRecord) => active(r) && r.remark_1 === "lag: 1"],
    ["discontinued series", (r: InfoRecord) => r.remark_2.startsWith("Discontinued")],
  ])(
    "%s: History then Series Values cover the start to last_available_final, no gap, no overlap",
    async (_case, predicate) => {
      const chosen = energy.filter(predicate).slice(0, 20);
      const codes = chosen.map((record) => record.code).join(",");
      const recent = await values("energy_price", codes);
      const history = await values("energy_price", codes, true);
      const starts = chosen.map((series) => {
        const finals = (answer: ValuesRecord[]): string[] =>
          answer.find((record) => record.code === series.code)?.series_final_values.map((p) => p.date) ?? [];
        const months = [...finals(recent), ...finals(history)];
        const start = months.at(-1) ?? "";
        expect(finals(recent)).toHaveLength(VALUES_WINDOW_MONTHS);
        expect(months).toEqual(
          Array.from({ length: months.length }, (_, i) => addMonths(series.last_available_final, -i)),
        );
        return start;
      });
      expect(starts).toContain("2007-01-01");
      expect(starts.every((start) => start >= "2007-01-01")).toBe(true);
    },
  );
});

describe("codes segment (docs/service.md §4.6)", () => {
  test.each([
    ["41 codes", Array.from({ length: 41 }, (_, i) => `1000-1-${i}`).join(","), /Too many codes: 41/],
    ["a code that is not three digit groups", "68520-8", /Malformed code '68520-8'/],
    ["letters in a code", "abc-1-2", /Malformed code 'abc-1-2'/],
    ["an empty element", "68520-8-1,,912-5-2", /Malformed code '' at position 2/],
    ["an unknown option", "68520-8-1&x=3", /Malformed option 'x=3'/],
    ["an option key with extra letters", "68520-8-1&cur=1", /Malformed option 'cur=1'/],
    ["a repeated option", "68520-8-1&c=1&c=3", /Option c given twice/],
  ])("%s is a 400 naming the problem", async (_case, segment, pattern) => {
    const answer = await service.get<{ message: string }>(`/energy_price/v1/export/series/${segment}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(pattern);
  });

  test("40 codes are accepted", async () => {
    const codes = energy.slice(0, 40).map((record) => `${record.code}&c=1&u=4`);
    const records = await values("energy_price", codes.join(","));
    expect(records).toHaveLength(40);
  });

  test("unknown codes are left out and cost nothing", async () => {
    const series = pick(energy, (r) => r.coverage === "Japan", "Japan series");
    const before = await remaining("energy_price", "Japan");
    const records = await values("energy_price", `99999-9-99,${series.code},1-1-1`);
    expect(records.map((record) => record.code)).toEqual([series.code]);
    expect(await remaining("energy_price", "Japan")).toBe((before ?? 0) - 1);
  });

  test("codes of another product are left out", async () => {
    const records = await values("energy_price", commodity[0]?.code ?? "");
    expect(records).toEqual([]);
  });
});

describe("currency and unit conversion", () => {
  const gas = (): InfoRecord =>
    pick(
      energy,
      (r) => active(r) && r.default_unit === "MWh" && r.default_currency === "EUR",
      "EUR/MWh series",
    );

  test.each([
    ["c then u", "&c=1&u=4", "USD", "kWh"],
    ["u then c", "&u=4&c=1", "USD", "kWh"],
    ["an invalid currency ID", "&c=99", "EUR", "MWh"],
    ["an invalid unit ID", "&u=77", "EUR", "MWh"],
    // Invalid IDs of any form get the default too (docs/service.md §4.6), not a 400.
    ["a non-numeric currency", "&c=EUR", "EUR", "MWh"],
    ["an empty currency", "&c=&u=4", "EUR", "kWh"],
    ["a currency without a value", "&c&u=4", "EUR", "kWh"],
    ["a negative unit", "&u=-4", "EUR", "MWh"],
    ["a fractional unit", "&c=1&u=4.0", "USD", "MWh"],
    ["a unit name instead of an ID", "&u=kWh", "EUR", "MWh"],
    ["a currency ID too long to be one", "&c=10000000001", "EUR", "MWh"],
    ["a unit of another dimension", "&u=1", "EUR", "MWh"],
    ["a currency the series does not offer", "&c=2", "EUR", "MWh"],
    ["only a unit", "&u=3", "EUR", "MMBtu"],
  ])("%s: applied currency and unit are stated", async (_case, options, currency, unit) => {
    const [record] = await values("energy_price", `${gas().code}${options}`);
    expect([record?.currency, record?.unit]).toEqual([currency, unit]);
  });

  test("options of one code are independent of the other codes'", async () => {
    const code = gas().code;
    const records = await values("energy_price", `${code}&u=4,${code},${code}&c=9`);
    expect(records.map((record) => `${record.currency}/${record.unit}`)).toEqual([
      "EUR/kWh",
      "EUR/MWh",
      "GBP/MWh",
    ]);
  });

  test("1 MWh = 1000 kWh = 3.6 GJ; mass 1 mt = 1000 kg", async () => {
    const code = gas().code;
    const [mwh, kwh, gj] = await values("energy_price", `${code}&u=7,${code}&u=4,${code}&u=31`);
    const ton = pick(commodity, (r) => active(r) && r.default_unit === "mt", "per-ton series");
    const [mt, kg] = await values("commodity_price", `${ton.code}&u=1,${ton.code}&u=6`);
    mwh?.series_final_values.forEach((point, index) => {
      expect((kwh?.series_final_values[index]?.value ?? 0) * 1000).toBeCloseTo(point.value, 1);
      expect((gj?.series_final_values[index]?.value ?? 0) * 3.6).toBeCloseTo(point.value, 1);
      expect((kg?.series_final_values[index]?.value ?? 0) * 1000).toBeCloseTo(
        mt?.series_final_values[index]?.value ?? 0,
        0,
      );
    });
  });

  test("currencies convert with one monthly rate: EUR -> USD -> EUR round-trips", async () => {
    const eurSeries = gas();
    const usdSeries = pick(
      energy,
      (r) => active(r) && r.default_currency === "USD" && r.default_unit === "MWh",
      "USD series",
    );
    const [eur, eurInUsd] = await values("energy_price", `${eurSeries.code},${eurSeries.code}&c=1`);
    const [usd, usdInEur] = await values("energy_price", `${usdSeries.code},${usdSeries.code}&c=3`);
    eur?.series_final_values.forEach((point, index) => {
      const usdPerEur = (eurInUsd?.series_final_values[index]?.value ?? 0) / point.value;
      const eurPerUsd =
        (usdInEur?.series_final_values[index]?.value ?? 0) / (usd?.series_final_values[index]?.value ?? 1);
      expect(usdPerEur * eurPerUsd).toBeCloseTo(1, 4);
      expect(usdPerEur).toBeGreaterThan(0.9);
      expect(usdPerEur).toBeLessThan(1.7);
    });
  });
});

describe("industry economics data types", () => {
  const utility = (): InfoRecord =>
    pick(industry, (r) => active(r) && r.default_unit === "MWh", "utility series");
  const factor = (): InfoRecord =>
    pick(industry, (r) => r.commodity === "Location Factor", "location factor");
  const index = (): InfoRecord =>
    pick(industry, (r) => r.commodity === "Plant Construction Cost Index", "cost index");

  test.each([
    ["utilities and location factors", () => [utility(), factor()]],
    ["location factors and cost indexes", () => [factor(), index()]],
    ["cost indexes and utilities", () => [index(), utility()]],
  ])("a call mixing %s is rejected and costs nothing", async (_case, make) => {
    const codes = make();
    const before = await remaining("industry_economics", codes[0]?.coverage ?? "");
    const answer = await service.get<{ message: string }>(
      `/industry_economics/v1/export/series/${codes.map((r) => r.code).join(",")}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/one data type only/);
    expect(await remaining("industry_economics", codes[0]?.coverage ?? "")).toBe(before);
  });

  test("c and u apply to utilities only", async () => {
    const [converted] = await values("industry_economics", `${utility().code}&c=5&u=4`);
    expect([converted?.currency, converted?.unit]).toEqual(["JPY", "kWh"]);
    const [ignored] = await values("industry_economics", `${index().code}&c=5&u=4`);
    expect([ignored?.currency, ignored?.unit]).toEqual([NOT_APPLICABLE, NOT_APPLICABLE]);
  });

  test("location factors have no forecasts, even in History", async () => {
    const [record] = await values("industry_economics", factor().code, true);
    expect(record?.series_forecast_values).toEqual([]);
    expect(record?.series_final_values.length).toBeGreaterThan(100);
  });

  test("all three data types draw on one allowance per country", async () => {
    const country = "Brazil";
    const inCountry = (commodityName: string) =>
      pick(
        industry,
        (r) => r.coverage === country && active(r) && r.commodity === commodityName,
        commodityName,
      );
    const before = (await remaining("industry_economics", country)) ?? 0;
    await values("industry_economics", inCountry("Location Factor").code);
    await values("industry_economics", inCountry("Plant Construction Cost Index").code);
    await values("industry_economics", inCountry("Steam").code, true);
    expect(await remaining("industry_economics", country)).toBe(before - 3);
  });
});

describe("sandbox", () => {
  test.each([
    ["series", false],
    ["series_hist", true],
  ])("sandbox %s: same format, dummy negative values, no allowance charged", async (path, history) => {
    const series = pick(
      energy,
      (r) => active(r) && r.coverage === "Chile" && r.has_forecast === "True",
      "Chile series",
    );
    const before = await remaining("energy_price", "Chile");
    const answer = await service.get<ValuesRecord[]>(
      `/energy_price/v1/sandbox/export/${path}/${series.code}`,
    );
    expect(answer.status).toBe(200);
    const [live] = await values("energy_price", series.code, history);
    const [record] = answer.body;
    expect(Object.keys(record ?? {}).sort()).toEqual(Object.keys(live ?? {}).sort());
    expect(record?.series_final_values.map((p) => p.date)).toEqual(
      live?.series_final_values.map((p) => p.date),
    );
    const all = [...(record?.series_final_values ?? []), ...(record?.series_forecast_values ?? [])];
    expect(all.every((point) => point.value < 0)).toBe(true);
    expect(await remaining("energy_price", "Chile")).toBe((before ?? 0) - 1);
  });
});
