import type { SeriesData } from "../../../src/core/engine-api";
import { PLAIN_SERIAL_DATES, hostCapabilitiesFor } from "../../../src/functions/host-capabilities";
import { MAX_TABLES_PER_VERSION, seriesMemo } from "../../../src/functions/shape/series-memo";
import { pickValue } from "../../../src/functions/shape/value-cell";
import { buildValuesTable, type ValuesLayout } from "../../../src/functions/shape/values-table";
import { makeInfo, monthlyPoints } from "../../support/series-records";
import { PointColumns } from "../../../src/core/point-columns";

function series(version: number, finals = PointColumns.fromPoints(monthlyPoints("2024-01", 12))): SeriesData {
  return {
    key: "live|energy_price|68520-8-1|default|default",
    info: makeInfo({ code: "68520-8-1" }),
    finals,
    forecasts: PointColumns.fromPoints(monthlyPoints("2025-01", 3, 500)),
    currency: "EUR",
    unit: "MWh",
    updatedAt: null,
    lastFinal: "2024-12",
    fetchedAt: 0,
    version,
  };
}

const LAYOUT: ValuesLayout = { start: null, end: null, headers: 1, forecast: 1, order: 0 };

test("one table per version and layout, shared by every cell and frozen (its rows are left unfrozen)", () => {
  const data = series(1);
  const first = buildValuesTable(data, LAYOUT, PLAIN_SERIAL_DATES);
  // Another cell, another SeriesData object of the same version (e.g. served stale).
  expect(buildValuesTable({ ...data }, { ...LAYOUT }, PLAIN_SERIAL_DATES)).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  // A frozen row of numbers holds each number boxed (series-memo.ts): rows stay as built.
  expect(Object.isFrozen(first[1])).toBe(false);
  expect(buildValuesTable(data, { ...LAYOUT, order: 1 }, PLAIN_SERIAL_DATES)).not.toBe(first);
});

test.each<[string, (data: SeriesData) => SeriesData]>([
  ["a new version of the same arrays", (data) => ({ ...data, version: 2 })],
  [
    "other forecasts",
    (data) => ({ ...data, forecasts: PointColumns.fromPoints(monthlyPoints("2025-01", 3, 900)) }),
  ],
  ["other finals", (data) => ({ ...data, finals: PointColumns.fromPoints(monthlyPoints("2024-01", 12, 7)) })],
])("%s gets a table of its own data", (_name, change) => {
  const data = series(1);
  const before = buildValuesTable(data, LAYOUT, PLAIN_SERIAL_DATES);
  const changed = change(data);
  const after = buildValuesTable(changed, LAYOUT, PLAIN_SERIAL_DATES);
  expect(after).not.toBe(before);
  expect(after[1]?.[1]).toBe(changed.finals.valueAt(0));
  expect(after[after.length - 1]?.[1]).toBe(changed.forecasts.valueAt(2));
});

test("series with forecasts only keep a table each (their empty finals are one shared object)", () => {
  const onlyForecasts = (version: number, start: number): SeriesData => ({
    ...series(version),
    finals: PointColumns.EMPTY,
    lastFinal: null,
    forecasts: PointColumns.fromPoints(monthlyPoints("2025-01", 3, start)),
  });
  const a = onlyForecasts(11, 500);
  const b = onlyForecasts(12, 900);
  const first = buildValuesTable(a, LAYOUT, PLAIN_SERIAL_DATES);
  expect(buildValuesTable(b, LAYOUT, PLAIN_SERIAL_DATES)).not.toBe(first);
  // B's memo did not take A's place.
  expect(buildValuesTable({ ...a }, LAYOUT, PLAIN_SERIAL_DATES)).toBe(first);
});

test("a table per host kind; the same host object for every cell of a runtime", () => {
  const requirements = { isSetSupported: () => true };
  const host = hostCapabilitiesFor(requirements);
  expect(hostCapabilitiesFor(requirements)).toBe(host);
  const data = series(1);
  const plain = buildValuesTable(data, LAYOUT, PLAIN_SERIAL_DATES);
  const formatted = buildValuesTable(data, LAYOUT, host);
  expect(formatted).not.toBe(plain);
  expect(formatted[1]?.[0]).toMatchObject({ basicValue: plain[1]?.[0] });
});

test("the tables kept per version are bounded", () => {
  const data = series(1);
  const memo = seriesMemo(data);
  let builds = 0;
  const build = () => {
    builds += 1;
    return [[builds]];
  };
  for (let index = 0; index <= MAX_TABLES_PER_VERSION; index += 1)
    memo.table(`layout ${index}`, PLAIN_SERIAL_DATES, build);
  expect(builds).toBe(MAX_TABLES_PER_VERSION + 1);
  // The first layouts were let go when the bound was reached.
  memo.table("layout 0", PLAIN_SERIAL_DATES, build);
  expect(builds).toBe(MAX_TABLES_PER_VERSION + 2);
});

test.each<[string | null, number]>([
  [null, 111],
  ["2024-01", 100],
  ["2024-12", 111],
  ["2025-02", 501],
])("VALUE of %j reads the index of the version: %d", (month, value) => {
  const data = series(3);
  expect(pickValue(data, month)).toBe(value);
  // The same version's index answers again (no table is built for VALUE).
  expect(pickValue({ ...data }, month)).toBe(value);
});
