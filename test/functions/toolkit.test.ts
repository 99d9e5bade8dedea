// The toolkit functions on the real engine (fake transport, real shape): hand-computed
// values, their errors, and what they cost. V(m) = final, else forecast.
import { PcdError } from "../../src/core/errors";
import type { Month } from "../../src/core/model";
import { averageJob, type AverageArguments } from "../../src/functions/average";
import { changeJob } from "../../src/functions/change";
import type { CellError } from "../../src/functions/cell-errors";
import { escalateJob, type EscalateArguments } from "../../src/functions/escalate";
import { relocateJob, type RelocateArguments } from "../../src/functions/relocate";
import type { RatioArguments } from "../../src/functions/series-ratio";
import { startStreamingCell, type CellJob } from "../../src/functions/streaming-cell";
import { createHarness, type Harness } from "../core/support/engine-harness";
import { FakeService } from "../core/support/fake-service";
import { seriesInfo } from "../core/support/series-fixtures";

// An index (last final 2026-10, forecasts 2026-11..2027-04) and two location factors.
const INDEX = "10-1-1";
const ZERO = "11-1-1";
const US_GULF = "20-1-1";
const GERMANY = "21-1-1";
const PRICES: Record<string, Record<Month, number>> = {
  [INDEX]: { "2019-01": 80, "2024-01": 90, "2024-02": 96, "2024-03": 99, "2026-09": 118, "2026-10": 120 },
  [ZERO]: { "2019-01": 0, "2026-10": 50 },
  [US_GULF]: { "2026-09": 1, "2026-10": 1 },
  [GERMANY]: { "2026-09": 1.2, "2026-10": 1.25 },
};

function service(): FakeService {
  const fake = new FakeService();
  fake.addSeries(seriesInfo({ code: INDEX }), seriesInfo({ code: ZERO }));
  fake.addSeries(
    seriesInfo({
      code: US_GULF,
      product: "industry_economics",
      dataType: "location_factor",
      location: "US Gulf Coast",
      assessment: "Location factor, US Gulf Coast vs US Gulf Coast",
      lastAvailableFinal: "2026-10",
    }),
    seriesInfo({
      code: GERMANY,
      product: "industry_economics",
      dataType: "location_factor",
      assessment: "Location factor, Germany vs US Gulf Coast",
      lastAvailableFinal: "2026-09",
    }),
  );
  // Finals from the table (else 100); the fake service's forecasts are -valueOf(month).
  fake.valueOf = (code, month) => {
    if (month > "2026-10") return month === "2027-01" ? -130 : -125;
    return PRICES[code]?.[month] ?? 100;
  };
  fake.limits.set("energy_price", { Germany: { remaining: 500, total: 500 } });
  return fake;
}

type Outcome = number | CellError;

/** The cell's first result; the cell is then cancelled, so no retry timer outlives the test. */
async function run(h: Harness, job: CellJob<number>): Promise<Outcome> {
  let cell: { cancel(): void } | undefined;
  const outcome = await new Promise<Outcome>((resolve) => {
    cell = startStreamingCell<number, CellError>({ setResult: (value) => resolve(value as Outcome) }, job, {
      engine: h.engine,
      toHostError: (error) => error,
      now: () => h.engine.now(),
    });
  });
  cell?.cancel();
  return outcome;
}

const escalate = (args: Partial<EscalateArguments>): EscalateArguments => ({
  amount: 1000,
  code: INDEX,
  from_date: "2019-01",
  to_date: null,
  currency: null,
  unit: null,
  ...args,
});

test.each<[string, Partial<EscalateArguments>, Outcome]>([
  // 1000 × 120 / 80
  ["to the latest final month", {}, 1500],
  ["to an explicit month", { to_date: "2024-01" }, 1125],
  // A forecast month: V = forecast 130.
  ["to a forecast month", { to_date: "2027-01" }, 1625],
  ["as an Excel date serial (2019-01-15)", { from_date: 43480, to_date: "2026-10" }, 1500],
  ["amount as text", { amount: "2,000" }, 3000],
  [
    "a month without a value",
    { to_date: "2028-01" },
    {
      type: "#N/A",
      message: expect.stringMatching(
        /^No value for 10-1-1 in 2028-01 \(finals 2007-01 to 2026-10; forecasts 2026-11 to 2027-04\)\.$/,
      ),
    },
  ],
  ["V(from) = 0", { code: ZERO }, { type: "#DIV/0!", message: expect.stringContaining("is 0") }],
  [
    "a non-numeric amount",
    { amount: "lots" },
    { type: "#VALUE!", message: expect.stringMatching(/^The amount must be a number/) },
  ],
])("PCD.ESCALATE %s", async (_case, args, expected) => {
  const h = createHarness({ service: service() });
  expect(await run(h, escalateJob(h.engine, escalate(args)))).toEqual(expected);
});

test.each<[string, Partial<RatioArguments>, number]>([
  // 120 / 80 − 1
  ["latest vs 2019-01", {}, 0.5],
  // 99 / 90 − 1
  ["2024-01 to 2024-03", { from_date: "2024-01", to_date: "2024-03" }, 0.1],
])("PCD.CHANGE %s", async (_case, args, expected) => {
  const h = createHarness({ service: service() });
  const result = await run(
    h,
    changeJob(h.engine, {
      code: INDEX,
      from_date: "2019-01",
      to_date: null,
      currency: null,
      unit: null,
      ...args,
    }),
  );
  expect(result).toBeCloseTo(expected, 12);
});

const average = (args: Partial<AverageArguments>): AverageArguments => ({
  code: INDEX,
  start_date: "2024-01",
  end_date: "2024-03",
  currency: null,
  unit: null,
  forecast: null,
  ...args,
});

test.each<[string, Partial<AverageArguments>, Outcome]>([
  // (90 + 96 + 99) / 3
  ["a quarter of finals", {}, 95],
  // 2026-10 final 120, 2026-11 and 2026-12 forecasts 125: (120 + 125 + 125) / 3
  ["finals then forecasts", { start_date: "2026-10", end_date: "2026-12" }, 370 / 3],
  [
    "finals only, a month has none",
    { start_date: "2026-10", end_date: "2026-12", forecast: 0 },
    {
      type: "#N/A",
      message: expect.stringMatching(
        /^No final value for 10-1-1 in 2026-11, so no average from 2026-10 to 2026-12/,
      ),
    },
  ],
  [
    "start after end",
    { start_date: "2024-03", end_date: "2024-01" },
    { type: "#VALUE!", message: expect.stringMatching(/^The start_date 2024-03 is after/) },
  ],
])("PCD.AVERAGE %s", async (_case, args, expected) => {
  const h = createHarness({ service: service() });
  const result = await run(h, averageJob(h.engine, average(args)));
  if (typeof expected === "number") expect(result).toBeCloseTo(expected, 12);
  else expect(result).toEqual(expected);
});

const relocate = (args: Partial<RelocateArguments>): RelocateArguments => ({
  amount: 1_000_000,
  from_code: US_GULF,
  to_code: GERMANY,
  date: null,
  ...args,
});

test.each<[string, Partial<RelocateArguments>, Outcome]>([
  // The latest final both have is 2026-09 (Germany's): 1,000,000 × 1.2 / 1
  ["at the latest month both have", {}, 1_200_000],
  ["at an explicit month", { date: "2026-09" }, 1_200_000],
  ["back again", { from_code: GERMANY, to_code: US_GULF, amount: 1_200_000 }, 1_000_000],
  [
    "a price series",
    { from_code: INDEX },
    { type: "#VALUE!", message: expect.stringMatching(/^The from_code 10-1-1 is not a location factor/) },
  ],
])("PCD.RELOCATE %s", async (_case, args, expected) => {
  const h = createHarness({ service: service() });
  const result = await run(h, relocateJob(h.engine, relocate(args)));
  if (typeof expected === "number") expect(result).toBeCloseTo(expected, 6);
  else expect(result).toEqual(expected);
});

test("toolkit cells cost no request a VALUES cell of the same key would not: recent months one Series Values request", async () => {
  const h = createHarness({ service: service() });
  await run(h, escalateJob(h.engine, escalate({ from_date: "2026-01", to_date: "2027-01" })));
  await run(
    h,
    changeJob(h.engine, { code: INDEX, from_date: "2025-12", to_date: null, currency: null, unit: null }),
  );
  await run(h, averageJob(h.engine, average({ start_date: "2026-01", end_date: "2026-06" })));
  expect(h.service.dataCalls().map((call) => call.operation)).toEqual(["series_values"]);
  expect(h.service.codesSent()).toBe(1);
  // A 2019 month adds History, once.
  await run(h, escalateJob(h.engine, escalate({})));
  await run(h, averageJob(h.engine, average({})));
  expect(h.service.dataCalls().map((call) => call.operation)).toEqual(["series_values", "series_hist"]);
});

test("a failure while fetching is the cause, not a wrong number", async () => {
  const fake = service();
  fake.failWith(() => new PcdError("network", "PCD could not be reached."));
  const h = createHarness({ service: fake });
  // The cause, then when the cell tries again by itself.
  expect(await run(h, escalateJob(h.engine, escalate({})))).toEqual({
    type: "#N/A",
    message: expect.stringMatching(/^PCD could not be reached\. Will try again at \d\d:\d\d UTC\.$/),
  });
});
