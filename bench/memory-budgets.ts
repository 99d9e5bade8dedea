// The memory budgets of the data held long (tables, cached series, a cell's job and state):
// the layout of each is paid many thousands of times over in a large workbook. Each budget
// measures the bytes one unit keeps alive (retained-bytes.ts), several times; the median is
// judged against the bound (memory-budget.ts). Run by `npm run bench` (and `-- --only-memory`).
import { createEngine } from "../src/core/engine";
import type { Engine, SeriesData } from "../src/core/engine-api";
import { parseSeriesInfoList } from "../src/core/http/schemas";
import { TextPool } from "../src/core/http/text-pool";
import type { SeriesInfo } from "../src/core/model";
import { monthOfIndex } from "../src/core/months";
import { PointColumns } from "../src/core/point-columns";
import { requestKeyOf } from "../src/core/request-key";
import { MemoryStorage } from "../src/core/storage";
import { packPoints } from "../src/core/stored-points";
import { PLAIN_SERIAL_DATES } from "../src/functions/host-capabilities";
import { infoJob } from "../src/functions/info";
import { buildValuesTable, type ValuesLayout } from "../src/functions/shape/values-table";
import { startStreamingCell, type CellJob } from "../src/functions/streaming-cell";
import { valueJob } from "../src/functions/value";
import { valuesJob } from "../src/functions/values";
import { RecordingInvocation } from "../src/headless/invocation";
import { judgeBudget, type MemoryFigure } from "./memory-budget";
import { retainedBytes } from "./retained-bytes";

export interface MemoryBudget {
  id: string;
  title: string;
  unit: string;
  /** Bytes per unit, at most (the median of the samples). */
  bound: number;
  /** Builds what is measured and returns one sample: bytes per unit. */
  sample(): Promise<number>;
}

/** Samples per budget; the median is judged, so one disturbed sample does not decide. */
export const MEMORY_SAMPLES = 5;

/** A Series Info answer's text: every record has its own code, the rest repeats as in a real catalog. */
function catalogText(count: number): string {
  const records = Array.from({ length: count }, (_, index) => ({
    code: `${10000 + index}-1-1`,
    assessment: "Natural gas price, industrial",
    available_currencies: "USD,EUR,GBP,CNY,JPY",
    available_units: "MMBtu,kWh,MWh,MJ,GJ",
    commodity: "Natural gas",
    coverage: "Germany",
    default_currency: "USD",
    default_unit: "MWh",
    has_forecast: "True",
    has_preliminary: "False",
    last_available_final: "2026-09-01",
    location: "Germany",
    product: "Energy Price",
    remark_1: "lag: 0",
    series_hist_changed: "False",
    specification: "Industrial tariff",
    updated_at: "2026-11-04",
  }));
  return JSON.stringify(records);
}

function oneSeriesInfo(): SeriesInfo {
  const [info] = parseSeriesInfoList(JSON.parse(catalogText(1)) as unknown, "energy_price");
  if (info === undefined) throw new Error("The Series Info fixture gave no record");
  return info;
}

/** A series of `months` finals from 1900 on, with values that are not small integers. */
function longSeries(months: number): SeriesData {
  const finals = Array.from({ length: months }, (_, index) => ({
    month: monthOfIndex(index),
    value: index + 0.5,
  }));
  return {
    key: "live|energy_price|10000-1-1|default|default",
    info: oneSeriesInfo(),
    finals: PointColumns.fromPoints(finals),
    forecasts: PointColumns.EMPTY,
    currency: "USD",
    unit: "MWh",
    updatedAt: "2026-11-04",
    lastFinal: finals[months - 1]?.month ?? null,
    fetchedAt: 0,
    version: 1,
  };
}

const TABLE_DEFAULTS: ValuesLayout = { start: null, end: null, headers: 1, forecast: 1, order: 0 };

/** An engine that is never asked for data: jobs and cells only keep references to it. */
async function offlineEngine(): Promise<Engine> {
  const engine = createEngine({
    fetch: () => Promise.reject(new Error("The memory budgets make no calls")),
    storage: new MemoryStorage(),
    clock: { now: () => Date.UTC(2026, 10, 20, 12) },
  });
  await engine.ready();
  return engine;
}

const perUnit = (make: () => unknown, units: number): number => retainedBytes(make) / units;

function valuesTableBudget(
  id: string,
  label: string,
  layout: Partial<ValuesLayout>,
  bound: number,
): MemoryBudget {
  return {
    id,
    title: `a VALUES table row (${label})`,
    unit: "row",
    bound,
    // Tables live as long as their series version, one per layout: at 10,000 cells they
    // were most of the heap while each row grown by push kept room for 20 cells.
    sample: async () => {
      buildValuesTable(longSeries(24), { ...TABLE_DEFAULTS, ...layout }, PLAIN_SERIAL_DATES);
      const months = 12_000;
      const data = longSeries(months);
      return perUnit(
        () => buildValuesTable(data, { ...TABLE_DEFAULTS, ...layout }, PLAIN_SERIAL_DATES),
        months,
      );
    },
  };
}

function jobBudget(id: string, name: string, make: (engine: Engine) => CellJob<unknown>): MemoryBudget {
  return {
    id,
    title: `${name} cell's job (its references, no functions of its own)`,
    unit: "cell",
    // Under 120 measured; an object of two closures and their scope cost 200 or more.
    bound: 170,
    sample: async () => {
      const engine = await offlineEngine();
      const count = 30_000;
      return perUnit(() => Array.from({ length: count }, () => make(engine)), count);
    },
  };
}

const CODE = "10000-1-1";

export const MEMORY_BUDGETS: readonly MemoryBudget[] = [
  {
    id: "cached-point",
    title: "a cached point (1,000 series of 150 months)",
    unit: "point",
    // 8 bytes a value, plus each series' two small objects and its buffer's header; one
    // object per point cost about 64 bytes with its boxed value.
    bound: 16,
    sample: async () => {
      const points = Array.from({ length: 150 }, (_, index) => ({
        month: monthOfIndex(1320 + index),
        value: 1.5 + index,
      }));
      return perUnit(() => Array.from({ length: 1000 }, () => PointColumns.fromPoints(points)), 1000 * 150);
    },
  },
  {
    id: "stored-point",
    title: "a stored series' point as storage copies it (structured clone)",
    unit: "point",
    // 8.0 measured: flat arrays came back as one boxed number per value, 30 bytes a point.
    bound: 10,
    sample: async () => {
      const months = 100_000;
      const points = Array.from({ length: months }, (_, index) => ({
        month: monthOfIndex(index),
        value: Math.round(index * 1.37) / 100,
      }));
      const packed = packPoints(PointColumns.fromPoints(points));
      return perUnit(() => structuredClone(packed), months);
    },
  },
  {
    id: "catalog-series",
    title: "a catalog's series, its repeated texts held once",
    unit: "series",
    // 667 measured pooled, 1,123 with a copy of every text.
    bound: 850,
    sample: async () => {
      const count = 5000;
      const text = catalogText(count);
      return perUnit(() => parseSeriesInfoList(JSON.parse(text) as unknown, "energy_price"), count);
    },
  },
  {
    id: "stored-catalog-series",
    title: "a catalog's series read back from storage and pooled",
    unit: "series",
    bound: 850,
    sample: async () => {
      const count = 5000;
      const stored = structuredClone(
        parseSeriesInfoList(JSON.parse(catalogText(count)) as unknown, "energy_price"),
      );
      return perUnit(() => {
        const pool = new TextPool();
        return structuredClone(stored).map((info) => pool.copy(info));
      }, count);
    },
  },
  valuesTableBudget("values-row-status", "date, value and status", { forecast: 1 }, 180),
  valuesTableBudget("values-row", "date and value", { forecast: 0 }, 170),
  jobBudget("value-job", "a VALUE", (engine) =>
    valueJob(engine, { code: CODE, date: null, currency: null, unit: null }),
  ),
  jobBudget("values-job", "a VALUES", (engine) =>
    valuesJob(
      engine,
      {
        code: CODE,
        currency: null,
        unit: null,
        start_date: "2026-01",
        end_date: null,
        headers: 1,
        forecast: 1,
        order: 0,
      },
      PLAIN_SERIAL_DATES,
    ),
  ),
  jobBudget("info-job", "an INFO", (engine) =>
    infoJob(engine, { code: CODE, field: null }, PLAIN_SERIAL_DATES),
  ),
  {
    id: "fast-path-cell",
    title: "a cell shown from the fast path (its key's hold and watch, not its run's map of keys)",
    unit: "cell",
    // About 1,500 with the engine's part; 1,680 while the run's map of keys was kept.
    bound: 1_600,
    sample: async () => {
      const engine = await offlineEngine();
      const key = requestKeyOf({
        environment: "live",
        product: "energy_price",
        code: CODE,
        currencyId: null,
        unitId: null,
      }).id;
      const job: CellJob<unknown> = {
        watch: "data",
        computeNow: (track) => {
          track(key);
          return 42;
        },
        compute: async () => 42,
      };
      const options = {
        engine,
        toHostError: (error: unknown) => ({ error }),
        now: () => Date.UTC(2026, 10, 20, 12),
      };
      const start = (count: number) =>
        Array.from({ length: count }, () => startStreamingCell({ setResult: () => undefined }, job, options));
      for (const cell of start(100)) cell.cancel();
      const count = 10_000;
      let cells: ReturnType<typeof start> = [];
      const bytes = perUnit(() => (cells = start(count)), count);
      for (const cell of cells) cell.cancel();
      return bytes;
    },
  },
  {
    id: "settled-invocation",
    title: "a settled invocation of the headless runner (one per formula in a pass)",
    unit: "formula",
    // Its fields and a slot of the array; a function and a kept promise with its resolver
    // per invocation cost 250 or more.
    bound: 200,
    sample: async () => {
      const count = 10_000;
      const warm = Array.from({ length: count }, () => new RecordingInvocation());
      const firsts = warm.map((invocation) => invocation.settled());
      warm.forEach((invocation, index) => invocation.setResult(index));
      await Promise.all(firsts);
      return perUnit(() => {
        const invocations = Array.from({ length: count }, () => new RecordingInvocation());
        for (const invocation of invocations) void invocation.settled();
        invocations.forEach((invocation, index) => invocation.setResult(index));
        return invocations;
      }, count);
    },
  },
];

/** Measures every budget `samples` times and judges each median against its bound. */
export async function measureMemoryBudgets(
  budgets: readonly MemoryBudget[] = MEMORY_BUDGETS,
  samples = MEMORY_SAMPLES,
): Promise<MemoryFigure[]> {
  const figures: MemoryFigure[] = [];
  for (const budget of budgets) {
    const measured: number[] = [];
    for (let index = 0; index < samples; index += 1) measured.push(await budget.sample());
    figures.push(judgeBudget(budget, measured));
  }
  return figures;
}
