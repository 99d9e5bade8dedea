import type { SeriesReleaseChanges } from "../../src/core/release-changes";
import { basisOf, changesBySeries } from "../../src/workbook/changes-by-series";

const revision = (month: string, before: number, after: number) => ({
  month,
  kind: "revised" as const,
  before,
  after,
  changePercent: before === 0 ? null : ((after - before) / Math.abs(before)) * 100,
});
const added = (month: string, after: number) => ({
  month,
  kind: "new" as const,
  before: null,
  after,
  changePercent: null,
});
const keyed = (
  code: string,
  currency: string | null,
  unit: string | null,
  months: SeriesReleaseChanges["months"],
): SeriesReleaseChanges => ({ key: `${code}|${currency}|${unit}`, code, currency, unit, months });

test.each<[string | null, string | null, string]>([
  ["EUR", "MWh", "EUR/MWh"],
  ["EUR", null, "EUR"],
  [null, null, ""],
])("basisOf(%p, %p) is %j", (currency, unit, basis) => {
  expect(basisOf(currency, unit)).toBe(basis);
});

test.each<
  [string, SeriesReleaseChanges[], { series: number; newMonths: number; revisedMonths: number }, string[]]
>([
  [
    "one series asked for in two units: each month once, its two values beside each other",
    [
      keyed("64643-1-12", "EUR", "MWh", [revision("2026-08", 10, 11), added("2026-10", 12)]),
      keyed("64643-1-12", "EUR", "MMBtu", [revision("2026-08", 2.93, 3.22), added("2026-10", 3.52)]),
    ],
    { series: 1, newMonths: 1, revisedMonths: 1 },
    ["64643-1-12 2026-08 revised EUR/MWh,EUR/MMBtu", "64643-1-12 2026-10 new EUR/MWh,EUR/MMBtu"],
  ],
  [
    "two codes: counted as two series, the biggest change first",
    [
      keyed("64643-1-12", "EUR", "MWh", [revision("2026-08", 10, 10.1)]),
      keyed("68520-8-1", null, null, [revision("2026-07", 100, 150), revision("2026-08", 0, 3)]),
    ],
    { series: 2, newMonths: 0, revisedMonths: 3 },
    ["68520-8-1 2026-07 revised ", "64643-1-12 2026-08 revised EUR/MWh", "68520-8-1 2026-08 revised "],
  ],
  ["nothing changed", [], { series: 0, newMonths: 0, revisedMonths: 0 }, []],
])("%s", (_name, changes, counts, lines) => {
  const grouped = changesBySeries(changes);
  expect({
    series: grouped.series,
    newMonths: grouped.newMonths,
    revisedMonths: grouped.revisedMonths,
  }).toEqual(counts);
  expect(
    grouped.lines.map(
      (line) =>
        `${line.code} ${line.month} ${line.kind} ${line.values.map((value) => value.basis).join(",")}`,
    ),
  ).toEqual(lines);
});

test("a month's values keep each key's before, after and change %", () => {
  const grouped = changesBySeries([
    keyed("64643-1-12", "EUR", "MWh", [revision("2026-08", 10, 11)]),
    keyed("64643-1-12", "EUR", "MMBtu", [revision("2026-08", 2.93, 3.22)]),
  ]);
  expect(grouped.lines[0]?.values).toEqual([
    { basis: "EUR/MWh", before: 10, after: 11, changePercent: expect.closeTo(10, 9) },
    { basis: "EUR/MMBtu", before: 2.93, after: 3.22, changePercent: expect.closeTo(9.898, 3) },
  ]);
});
