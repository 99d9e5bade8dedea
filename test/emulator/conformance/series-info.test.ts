// Conformance: Series Info (docs/service.md §2.1, §4.2) and the generated data set behind it, on the
// default (real) shape: booleans are "True"/"False" and "not applicable" is "-". The
// spec's letter (JSON booleans, "n/a") is checked in spec-shape.test.ts.
import { Harness, NOT_APPLICABLE, QUIET_NOW, type InfoRecord } from "./harness";

let service: Harness;
const info: Record<string, InfoRecord[]> = {};
const PRODUCTS = ["energy_price", "commodity_price", "industry_economics"] as const;

beforeAll(async () => {
  // The service's clock is pinned at the quiet time: every read sees the same instant.
  const pinned = Date.parse(QUIET_NOW);
  service = await Harness.start({}, { realNow: () => pinned });
  for (const product of PRODUCTS) {
    const answer = await service.get<InfoRecord[]>(`/${product}/v1/export/series`);
    expect(answer.status).toBe(200);
    info[product] = answer.body;
  }
});

afterAll(async () => {
  await service.close();
});

const all = (): InfoRecord[] => PRODUCTS.flatMap((product) => info[product] ?? []);

test("the largest product's Series Info is the whole catalog in one answer, the same on every read", async () => {
  const answer = await service.get<InfoRecord[]>("/commodity_price/v1/export/series");
  expect(answer.status).toBe(200);
  expect(answer.body).toHaveLength(info.commodity_price?.length ?? -1);
  expect(answer.text).toBe(JSON.stringify(info.commodity_price));
});

test.each([
  ["energy_price", "Energy Price", 33, 900],
  ["commodity_price", "Primary Commodity Price", 7, 1100],
  ["industry_economics", "Industry Economics", 33, 900],
] as const)("%s: product %s, %i datasets, at least %i series", (product, name, datasets, minimum) => {
  const records = info[product] ?? [];
  expect(records.length).toBeGreaterThanOrEqual(minimum);
  expect(new Set(records.map((record) => record.coverage)).size).toBe(datasets);
  expect(new Set(records.map((record) => record.product))).toEqual(new Set([name]));
});

test("a few thousand series in all, 210+ commodities, unique codes", () => {
  expect(all().length).toBeGreaterThan(3000);
  expect(new Set((info.commodity_price ?? []).map((record) => record.commodity)).size).toBeGreaterThanOrEqual(
    210,
  );
  expect(new Set(all().map((record) => record.code)).size).toBe(all().length);
});

test('every record has the §2.1 fields (docs/service.md); booleans are "True"/"False" strings', () => {
  for (const record of all()) {
    expect(Object.keys(record).sort()).toEqual(
      [
        "area",
        "assessment",
        "available_currencies",
        "available_units",
        "code",
        "commodity",
        "coverage",
        "default_currency",
        "default_unit",
        "details",
        "has_forecast",
        "has_preliminary",
        "last_available_final",
        "location",
        "product",
        "remark_1",
        "remark_2",
        "series_hist_changed",
        "specification",
        "updated_at",
      ].sort(),
    );
    expect(record.code).toMatch(/^\d+-\d+-\d+$/);
    expect(record.last_available_final).toMatch(/^\d{4}-\d{2}-01$/);
    expect(record.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record.remark_1).toMatch(/^lag: [01]$/);
    for (const flag of [record.has_forecast, record.has_preliminary, record.series_hist_changed]) {
      expect(["True", "False"]).toContain(flag);
    }
  }
});

test.each([
  ["a leading zero in the first group", /^0\d+-/],
  ["a two-digit last group", /-\d{2}$/],
])("some codes have %s", (_case, pattern) => {
  expect(all().some((record) => pattern.test(record.code))).toBe(true);
});

test("the latest concluded month is October 2026 after November's release; lag-1 series are a month behind", () => {
  const active = all().filter((record) => record.remark_2 === NOT_APPLICABLE);
  const lag0 = active
    .filter((record) => record.remark_1 === "lag: 0")
    .map((record) => record.last_available_final);
  const lag1 = active
    .filter((record) => record.remark_1 === "lag: 1")
    .map((record) => record.last_available_final);
  expect(lag1.length).toBeGreaterThan(0);
  // All are current: the few not updated at November's release (the 4th) got their month
  // in a late update the next day.
  expect(new Set(lag0)).toEqual(new Set(["2026-10-01"]));
  expect(new Set(lag1)).toEqual(new Set(["2026-09-01"]));
});

test("discontinued series are frozen and name a successor that exists", () => {
  const codes = new Set(all().map((record) => record.code));
  const discontinued = all().filter((record) => record.remark_2.startsWith("Discontinued"));
  expect(discontinued.length).toBeGreaterThan(10);
  for (const record of discontinued) {
    const successor = /^Discontinued; replaced by (\d+-\d+-\d+)$/.exec(record.remark_2)?.[1];
    expect(successor !== undefined && codes.has(successor)).toBe(true);
    expect(record.last_available_final < "2022-01-01").toBe(true);
    expect(record.has_forecast).toBe("False");
  }
});

test("some series have no forecasts; location factors never do", () => {
  expect(all().some((record) => record.has_forecast === "False" && record.remark_2 === NOT_APPLICABLE)).toBe(
    true,
  );
  const factors = (info.industry_economics ?? []).filter((record) => record.commodity === "Location Factor");
  expect(factors.length).toBeGreaterThan(100);
  expect(factors.every((record) => record.has_forecast === "False")).toBe(true);
  expect(factors[0]?.assessment).toMatch(/^Location factor, .+ vs .+$/);
});

test("non-utility industry series mark currency and unit as not applicable", () => {
  const nonUtilities = (info.industry_economics ?? []).filter((record) =>
    ["Location Factor", "Plant Construction Cost Index"].includes(record.commodity),
  );
  for (const record of nonUtilities) {
    expect([
      record.default_currency,
      record.default_unit,
      record.available_currencies,
      record.available_units,
    ]).toEqual([NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE]);
  }
});

const UNIT_DIMENSIONS: Record<string, string> = {
  mt: "mass",
  kg: "mass",
  lb: "mass",
  st: "mass",
  g: "mass",
  "t oz": "mass",
  m3: "volume",
  l: "volume",
  gal: "volume",
  Bbl: "volume",
  MWh: "energy",
  kWh: "energy",
  MMBtu: "energy",
  GJ: "energy",
  MJ: "energy",
  Nm3: "normal volume",
};

test("each priced series lists only units of its default unit's dimension, and its defaults", () => {
  const priced = all().filter((record) => record.default_unit !== NOT_APPLICABLE);
  for (const record of priced) {
    const units = record.available_units.split(",");
    expect(units).toContain(record.default_unit);
    expect(new Set(units.map((unit) => UNIT_DIMENSIONS[unit]))).toEqual(
      new Set([UNIT_DIMENSIONS[record.default_unit]]),
    );
    expect(record.available_currencies.split(",")).toContain(record.default_currency);
  }
  expect(priced.some((record) => record.available_units.includes("t oz"))).toBe(true);
  expect(
    (info.commodity_price ?? []).some((record) => record.available_currencies.includes("USD cent")),
  ).toBe(true);
});

test("the same seed gives the same catalog; another seed a different one", async () => {
  const again = await Harness.start({ seed: 1 });
  const other = await Harness.start({ seed: 2 });
  try {
    const same = await again.get<InfoRecord[]>("/energy_price/v1/export/series");
    const different = await other.get<InfoRecord[]>("/energy_price/v1/export/series");
    expect(same.body).toEqual(info.energy_price);
    expect(different.body.map((record) => record.code)).not.toEqual(info.energy_price?.map((r) => r.code));
  } finally {
    await again.close();
    await other.close();
  }
});

test("sandbox Series Info has the same format", async () => {
  const answer = await service.get<InfoRecord[]>("/industry_economics/v1/sandbox/export/series");
  expect(answer.status).toBe(200);
  expect(answer.body.map((record) => record.code)).toEqual(
    info.industry_economics?.map((record) => record.code),
  );
});

test("an unknown product base path is a 404 naming it", async () => {
  const answer = await service.get<{ message: string }>("/gas_price/v1/export/series");
  expect(answer.status).toBe(404);
  expect(answer.body.message).toMatch(/gas_price/);
});
