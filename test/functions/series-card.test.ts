// PCD.SERIES on the real engine (fake transport): the card where the host shows entities,
// PCD.INFO's table elsewhere, its argument errors, and what each costs in data requests.
import { PcdError } from "../../src/core/errors";
import type { CellError } from "../../src/functions/cell-errors";
import type { CellTable } from "../../src/functions/cell-value";
import { isEntityCell, type EntityCell } from "../../src/functions/entity-cell";
import { monthToSerial } from "../../src/functions/excel-dates";
import {
  hostCapabilitiesFor,
  PLAIN_SERIAL_DATES,
  type HostCapabilities,
  type RequirementSets,
} from "../../src/functions/host-capabilities";
import { seriesCardJob, type SeriesCardArguments } from "../../src/functions/series-card";
import { HISTORY_NOT_READ, MONTH_NUMBER_FORMAT } from "../../src/functions/series-card-entity";
import { buildInfoTable } from "../../src/functions/shape/info-table";
import { startStreamingCell, type CellJob } from "../../src/functions/streaming-cell";
import { valueJob } from "../../src/functions/value";
import { createHarness, type Harness } from "../core/support/engine-harness";
import { FakeService } from "../core/support/fake-service";
import { seriesInfo } from "../core/support/series-fixtures";

const CODE = "10-1-1";
/** Last final 2026-10; the fake service's forecasts run 2026-11..2027-04. */
function service(): FakeService {
  const fake = new FakeService();
  fake.addSeries(seriesInfo({ code: CODE, assessment: "Gas day-ahead" }));
  fake.firstMonth.set(CODE, "2019-01");
  fake.valueOf = (_code, month) => (month > "2026-10" ? -125 : month === "2026-10" ? 120 : 100);
  return fake;
}

const sets = (supported: string[]): RequirementSets => ({
  isSetSupported: (name, version) => supported.includes(`${name} ${version}`),
});
const EXCEL_1_19 = hostCapabilitiesFor(
  sets(["CustomFunctionsRuntime 1.4", "ExcelApi 1.19", "ExcelApi 1.16"]),
);
const EXCEL_1_16 = hostCapabilitiesFor(sets(["CustomFunctionsRuntime 1.4", "ExcelApi 1.16"]));
const EXCEL_1_15 = hostCapabilitiesFor(sets(["CustomFunctionsRuntime 1.4", "ExcelApi 1.15"]));

type Outcome = CellTable | CellError;

/** The cell's first result; the cell is then cancelled, so no retry timer outlives the test. */
async function run<T>(h: Harness, job: CellJob<T>): Promise<T | CellError> {
  let cell: { cancel(): void } | undefined;
  const outcome = await new Promise<T | CellError>((resolve) => {
    cell = startStreamingCell<T, CellError>({ setResult: (value) => resolve(value) }, job, {
      engine: h.engine,
      toHostError: (error) => error,
      now: () => h.engine.now(),
    });
  });
  cell?.cancel();
  return outcome;
}

const args = (overrides: Partial<SeriesCardArguments> = {}): SeriesCardArguments => ({
  code: CODE,
  currency: null,
  unit: null,
  history: null,
  ...overrides,
});

function cardOf(outcome: Outcome): EntityCell {
  if (!Array.isArray(outcome)) throw new Error(`an error: ${outcome.message}`);
  expect(outcome).toHaveLength(1);
  expect(outcome[0]).toHaveLength(1);
  const cell = outcome[0]?.[0];
  if (!isEntityCell(cell)) throw new Error(`not a card: ${JSON.stringify(cell)}`);
  return cell;
}

const dataOperations = (h: Harness): string[] => h.service.dataCalls().map((call) => call.operation);

test.each<[string, HostCapabilities, "Double" | "FormattedNumber"]>([
  ["ExcelApi 1.19", EXCEL_1_19, "Double"],
  ["ExcelApi 1.16", EXCEL_1_16, "FormattedNumber"],
])("%s: a card of the latest months for one Series Values request", async (_host, host, numberType) => {
  const h = createHarness({ service: service() });
  const card = cardOf(await run(h, seriesCardJob(h.engine, args(), host)));
  expect(card.text).toBe(`${CODE} Gas day-ahead (EUR/MWh)`);
  expect(card.properties).toMatchObject({
    Latest: { type: numberType, basicValue: 120, numberFormat: '#,##0.00## "EUR/MWh"' },
    LatestMonth: {
      type: numberType,
      basicValue: monthToSerial("2026-10"),
      numberFormat: MONTH_NUMBER_FORMAT,
    },
    ForecastHorizon: { type: numberType, basicValue: monthToSerial("2027-04") },
    HistoryStart: { type: "String", basicValue: HISTORY_NOT_READ },
  });
  const values = card.properties.Values;
  // 13 months of the window, 6 forecasts and the header.
  expect(values?.type === "Array" ? values.elements.length : 0).toBe(20);
  expect(dataOperations(h)).toEqual(["series_values"]);
  // A PCD.VALUE cell of the same series is served by what the card bought.
  expect(await run(h, valueJob(h.engine, { code: CODE, date: null, currency: null, unit: null }))).toBe(120);
  expect(dataOperations(h)).toEqual(["series_values"]);
});

test("history = 1: every month and the history start, for one History request more", async () => {
  const h = createHarness({ service: service() });
  const card = cardOf(await run(h, seriesCardJob(h.engine, args({ history: 1 }), EXCEL_1_19)));
  expect(card.properties.HistoryStart).toEqual({
    type: "Double",
    basicValue: monthToSerial("2019-01"),
    numberFormat: MONTH_NUMBER_FORMAT,
  });
  const values = card.properties.Values;
  // 2019-01..2026-10 is 94 finals, then 6 forecasts and the header.
  expect(values?.type === "Array" ? values.elements.length : 0).toBe(101);
  expect([...dataOperations(h)].sort()).toEqual(["series_hist", "series_values"]);
});

test.each<[string, HostCapabilities]>([
  ["ExcelApi 1.15", EXCEL_1_15],
  ["no formatted numbers (CustomFunctionsRuntime 1.3)", PLAIN_SERIAL_DATES],
])("%s: PCD.INFO's table, at no data request", async (_host, host) => {
  const h = createHarness({ service: service() });
  const outcome = await run(h, seriesCardJob(h.engine, args({ currency: "USD" }), host));
  const info = await h.engine.lookup(CODE);
  expect(outcome).toEqual(buildInfoTable(info, host));
  expect(dataOperations(h)).toEqual([]);
});

test.each<[string, Partial<SeriesCardArguments>, RegExp]>([
  ["a missing code", { code: null }, /^The code is missing/],
  ["a code without quotes", { code: 68511 }, /^The code arrived as the number 68511/],
  ["a currency the series does not offer", { currency: "JPY" }, /JPY/],
  ["a unit the series does not offer", { unit: "bbl" }, /bbl/],
  ["history 2", { history: 2 }, /^The history argument must be 0 \(.*\) or 1 \(.*\); got 2\.$/],
  ["history as text", { history: "all" }, /^The history argument must be 0 /],
])("%s is a #VALUE! naming it, on every host, with no data request", async (_case, overrides, message) => {
  for (const host of [EXCEL_1_19, EXCEL_1_15]) {
    const h = createHarness({ service: service() });
    expect(await run(h, seriesCardJob(h.engine, args(overrides), host))).toEqual({
      type: "#VALUE!",
      message: expect.stringMatching(message),
    });
    expect(dataOperations(h)).toEqual([]);
  }
});

test("an unknown code is #N/A naming it", async () => {
  const h = createHarness({ service: service() });
  expect(await run(h, seriesCardJob(h.engine, args({ code: "99-9-9" }), EXCEL_1_19))).toEqual({
    type: "#N/A",
    message: expect.stringMatching(/^Unknown code '99-9-9'/),
  });
});

test("a failed fetch is the cause and when the cell tries again, not an empty card", async () => {
  const fake = service();
  fake.failWith(() => new PcdError("network", "PCD could not be reached."));
  const h = createHarness({ service: fake });
  expect(await run(h, seriesCardJob(h.engine, args(), EXCEL_1_19))).toEqual({
    type: "#N/A",
    message: expect.stringMatching(/^PCD could not be reached\. Will try again at \d\d:\d\d UTC\.$/),
  });
});
