// Conformance: the shapes and the variants of the real service as options (each one
// overrides its shape's default on its own), the error format and CORS.
import type { EmulatorOptions } from "../../../src/emulator";
import {
  addMonths,
  EXTRA_VALUES_FIELDS,
  Harness,
  VALUES_WINDOW_MONTHS,
  type InfoRecord,
  type ValuesRecord,
} from "./harness";

async function withService<T>(
  options: Partial<EmulatorOptions>,
  run: (service: Harness) => Promise<T>,
): Promise<T> {
  const service = await Harness.start(options);
  try {
    return await run(service);
  } finally {
    await service.close();
  }
}

async function firstForecastSeries(service: Harness): Promise<InfoRecord> {
  const records = (await service.get<InfoRecord[]>("/energy_price/v1/export/series")).body;
  const found = records.find(
    (record) => [true, "True"].includes(record.has_forecast) && record.remark_2 === records[0]?.remark_2,
  );
  if (found === undefined) throw new Error("test data: no forecast series");
  return found;
}

async function valuesOf(service: Harness, code: string, history = false): Promise<ValuesRecord> {
  const answer = await service.get<ValuesRecord[]>(
    `/energy_price/v1/export/${history ? "series_hist" : "series"}/${code}`,
  );
  const [record] = answer.body;
  if (record === undefined) throw new Error(`no record for ${code}`);
  return record;
}

const dates = (record: ValuesRecord): string[] => record.series_final_values.map((point) => point.date);

/** What a service shows of each variant a shape sets, read from its answers. */
interface ShapeSeen {
  boolStrings: boolean;
  naMarker: string;
  extraFields: boolean;
  order: string;
  historyEndsBeforeValues: boolean;
  historyForecasts: boolean;
}

/** The real service's shape, the default (docs/service.md). */
const REAL: ShapeSeen = {
  boolStrings: true,
  naMarker: "-",
  extraFields: true,
  order: "newest",
  historyEndsBeforeValues: true,
  historyForecasts: false,
};

/** The letter of the service description. */
const SPEC: ShapeSeen = {
  boolStrings: false,
  naMarker: "n/a",
  extraFields: false,
  order: "newest",
  historyEndsBeforeValues: false,
  historyForecasts: true,
};

function orderOf(list: string[]): string {
  if (list.join() === [...list].sort().reverse().join()) return "newest";
  if (list.join() === [...list].sort().join()) return "oldest";
  return "shuffled";
}

async function observe(service: Harness): Promise<ShapeSeen> {
  const series = await firstForecastSeries(service);
  const industry = (await service.get<InfoRecord[]>("/industry_economics/v1/export/series")).body;
  const index = industry.find((record) => record.commodity === "Plant Construction Cost Index");
  const recent = await valuesOf(service, series.code);
  const history = await valuesOf(service, series.code, true);
  const newestInHistory = [...dates(history)].sort().at(-1) ?? "";
  return {
    boolStrings: typeof series.has_forecast === "string",
    naMarker: index?.default_currency ?? "",
    extraFields: EXTRA_VALUES_FIELDS.every((field) => typeof recent[field] === "string"),
    order: orderOf(dates(recent)),
    historyEndsBeforeValues:
      newestInHistory < addMonths(series.last_available_final, 1 - VALUES_WINDOW_MONTHS),
    historyForecasts: history.series_forecast_values.length > 0,
  };
}

test.each([
  ["the default", {}, REAL],
  ['shape "real"', { shape: "real" }, REAL],
  ['shape "spec"', { shape: "spec" }, SPEC],
] as const)("%s sends its shape", async (_case, options, expected) => {
  expect(await withService(options, observe)).toEqual(expected);
});

test.each([
  ["spec", { boolStrings: true }],
  ["spec", { naMarker: "-" }],
  ["spec", { extraFields: true }],
  ["spec", { order: "oldest" }],
  ["spec", { historyEndsBeforeValues: true }],
  ["spec", { historyForecasts: false }],
  ["real", { boolStrings: false }],
  ["real", { naMarker: "n/a" }],
  ["real", { extraFields: false }],
  ["real", { order: "oldest" }],
  ["real", { historyEndsBeforeValues: false }],
  ["real", { historyForecasts: true }],
] as const)(
  "shape %s with %j: that variant changes, the others keep the shape's",
  async (shape, override) => {
    const seen = await withService({ shape, ...override }, observe);
    expect(seen).toEqual({ ...(shape === "real" ? REAL : SPEC), ...override });
  },
);

test.each([
  ["newest", (list: string[]) => [...list].sort().reverse()],
  ["oldest", (list: string[]) => [...list].sort()],
] as const)("--order %s", async (order, expected) => {
  await withService({ order }, async (service) => {
    const record = await valuesOf(service, (await firstForecastSeries(service)).code);
    expect(dates(record)).toEqual(expected(dates(record)));
    const forecasts = record.series_forecast_values.map((point) => point.date);
    expect(forecasts).toEqual(expected(forecasts));
  });
});

test("--order shuffled: same points, in neither sorted order", async () => {
  await withService({ order: "shuffled" }, async (service) => {
    const code = (await firstForecastSeries(service)).code;
    const record = await valuesOf(service, code, true);
    const list = dates(record);
    expect(list).not.toEqual([...list].sort());
    expect(list).not.toEqual([...list].sort().reverse());
    const newest = await withService({}, async (plain) => valuesOf(plain, code, true));
    expect([...record.series_final_values].sort((a, b) => a.date.localeCompare(b.date))).toEqual(
      [...newest.series_final_values].sort((a, b) => a.date.localeCompare(b.date)),
    );
  });
});

test.each([0, 9])("--forecast-months %i", async (months) => {
  await withService({ forecastMonths: months }, async (service) => {
    const series = await firstForecastSeries(service);
    const record = await valuesOf(service, series.code);
    expect(record.series_forecast_values).toHaveLength(months);
  });
});

test("--duplicate-dates repeats some points; the last one carries the true value", async () => {
  const code = await withService({}, async (plain) => (await firstForecastSeries(plain)).code);
  const truth = await withService({}, async (plain) => valuesOf(plain, code, true));
  await withService({ duplicateDates: true }, async (service) => {
    const record = await valuesOf(service, code, true);
    expect(dates(record).length).toBeGreaterThan(new Set(dates(record)).size);
    const lastSeen = new Map(record.series_final_values.map((point) => [point.date, point.value]));
    expect(lastSeen).toEqual(new Map(truth.series_final_values.map((point) => [point.date, point.value])));
  });
});

test("--error-format text sends text/plain error bodies", async () => {
  await withService({ errorFormat: "text" }, async (service) => {
    const answer = await service.request("GET", "/energy_price/v1/data_limits");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(answer.text).toMatch(/^Missing Authorization header/);
  });
});

describe("CORS", () => {
  let service: Harness;

  beforeAll(async () => {
    service = await Harness.start();
  });

  afterAll(async () => {
    await service.close();
  });

  const preflight = (origin: string) =>
    service.request("OPTIONS", "/energy_price/v1/export/series", {
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });

  test.each(["https://localhost:3000", "https://localhost:8443", "http://127.0.0.1:5173"])(
    "the preflight from %s allows GET with Authorization",
    async (origin) => {
      const answer = await preflight(origin);
      expect(answer.status).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
      expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      expect(answer.headers.get("access-control-allow-methods")).toContain("GET");
    },
  );

  test("a foreign origin is not allowed", async () => {
    const answer = await preflight("https://evil.example");
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("answers carry the allowed origin and expose Retry-After", async () => {
    const answer = await service.request("GET", "/energy_price/v1/data_limits", {
      headers: { origin: "https://localhost:3000" },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://localhost:3000");
    expect(answer.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});

test("--latency delays every answer and --latency-per-code each code of a Values or History answer", async () => {
  const waits: number[] = [];
  const service = await Harness.start(
    { latencyMs: 60, latencyPerCodeMs: 20 },
    { wait: async (ms) => void waits.push(ms) },
  );
  try {
    const code = (await firstForecastSeries(service)).code;
    waits.length = 0;
    await service.get(`/energy_price/v1/export/series/${code},${code},${code}`);
    await service.get("/energy_price/v1/export/series");
    expect(waits).toEqual([60 + 3 * 20, 60]);
  } finally {
    await service.close();
  }
});
