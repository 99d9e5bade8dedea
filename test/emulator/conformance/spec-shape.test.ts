// Conformance on `shape: "spec"`, the letter of the service description: JSON booleans,
// "n/a" for fields that do not apply, values records with the described fields only, and
// History reaching last_available_final with the forecasts. The other conformance suites
// run on the default (real) shape; this is the one run on the spec shape.
import {
  addMonths,
  Harness,
  SPEC_VALUES_FIELDS,
  VALUES_WINDOW_MONTHS,
  type InfoRecord,
  type ValuesRecord,
} from "./harness";

let spec: Harness;
let energy: InfoRecord[];
let industry: InfoRecord[];

beforeAll(async () => {
  spec = await Harness.start({ shape: "spec" });
  energy = (await spec.get<InfoRecord[]>("/energy_price/v1/export/series")).body;
  industry = (await spec.get<InfoRecord[]>("/industry_economics/v1/export/series")).body;
});

afterAll(async () => {
  await spec.close();
});

function pick(records: InfoRecord[], predicate: (record: InfoRecord) => boolean, what: string): InfoRecord {
  const found = records.find(predicate);
  if (found === undefined) throw new Error(`Test data has no ${what}`);
  return found;
}

const active = (record: InfoRecord): boolean => record.remark_2 === "n/a";

async function values(product: string, segment: string, history = false): Promise<ValuesRecord[]> {
  const answer = await spec.get<ValuesRecord[]>(
    `/${product}/v1/export/${history ? "series_hist" : "series"}/${segment}`,
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

const dates = (record: ValuesRecord | undefined): string[] =>
  record?.series_final_values.map((point) => point.date) ?? [];

test("Series Info booleans are JSON booleans, both values present", () => {
  for (const field of ["has_forecast", "has_preliminary", "series_hist_changed"] as const) {
    const seen = new Set(energy.map((record) => record[field]));
    expect(seen).toEqual(new Set([true, false]));
  }
});

test('fields that do not apply are "n/a" in Series Info and in Series Values', async () => {
  const index = pick(
    industry,
    (r) => active(r) && r.commodity === "Plant Construction Cost Index",
    "cost index",
  );
  expect([
    index.default_currency,
    index.default_unit,
    index.available_currencies,
    index.available_units,
    index.area,
    index.details,
  ]).toEqual(["n/a", "n/a", "n/a", "n/a", "n/a", "n/a"]);
  expect(energy.filter(active).length).toBeGreaterThan(900);
  const [record] = await values("industry_economics", `${index.code}&c=1`);
  expect([record?.currency, record?.unit, record?.remark_2]).toEqual(["n/a", "n/a", "n/a"]);
});

test("Series Values: the described fields only, 13 finals and the forecasts, newest first", async () => {
  const series = pick(energy, (r) => active(r) && r.has_forecast === true, "forecast series");
  const [record] = await values("energy_price", series.code);
  expect(Object.keys(record ?? {}).sort()).toEqual([...SPEC_VALUES_FIELDS].sort());
  expect(dates(record)).toEqual(
    Array.from({ length: VALUES_WINDOW_MONTHS }, (_, i) => addMonths(series.last_available_final, -i)),
  );
  expect(record?.series_forecast_values.map((point) => point.date)).toEqual(
    Array.from({ length: 6 }, (_, i) => addMonths(series.last_available_final, 6 - i)),
  );
});

test("History: 2007-01 to last_available_final with the forecasts; its latest 13 finals are Series Values'", async () => {
  const series = pick(
    energy,
    (r) => active(r) && r.has_forecast === true && r.remark_1 === "lag: 0",
    "forecast series",
  );
  const [recent] = await values("energy_price", series.code);
  const [history] = await values("energy_price", series.code, true);
  expect(Object.keys(history ?? {}).sort()).toEqual([...SPEC_VALUES_FIELDS].sort());
  expect(dates(history)).toEqual(
    Array.from({ length: dates(history).length }, (_, i) => addMonths(series.last_available_final, -i)),
  );
  expect(dates(history).at(-1)).toBe("2007-01-01");
  expect(history?.series_final_values.slice(0, VALUES_WINDOW_MONTHS)).toEqual(recent?.series_final_values);
  expect(history?.series_forecast_values).toEqual(recent?.series_forecast_values);
  expect(history?.series_forecast_values).toHaveLength(6);
});

test("the real shape's History is the spec History cut before the window: same months, same values", async () => {
  const real = await Harness.start();
  try {
    const codes = energy
      .filter(active)
      .slice(0, 10)
      .map((record) => record.code)
      .join(",");
    const specHistory = await values("energy_price", codes, true);
    const realHistory = (await real.get<ValuesRecord[]>(`/energy_price/v1/export/series_hist/${codes}`)).body;
    expect(realHistory.map((record) => record.code)).toEqual(specHistory.map((record) => record.code));
    specHistory.forEach((record, index) => {
      const cut = record.series_final_values.slice(VALUES_WINDOW_MONTHS);
      expect(realHistory[index]?.series_final_values).toEqual(cut);
      expect(realHistory[index]?.series_forecast_values).toEqual([]);
    });
  } finally {
    await real.close();
  }
});
