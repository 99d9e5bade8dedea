import type { SeriesData } from "../../../src/core/engine-api";
import { pickValue } from "../../../src/functions/shape/value-cell";
import { makeInfo } from "../../support/series-records";
import { PointColumns } from "../../../src/core/point-columns";

const DATA: SeriesData = {
  key: "k",
  info: makeInfo({ code: "91201-1-5" }),
  finals: PointColumns.fromPoints([
    { month: "2024-11", value: 11 },
    { month: "2024-12", value: 12 },
  ]),
  forecasts: PointColumns.fromPoints([
    { month: "2024-12", value: 99 },
    { month: "2025-01", value: 13 },
  ]),
  currency: "EUR",
  unit: "MWh",
  updatedAt: null,
  lastFinal: "2024-12",
  fetchedAt: 0,
  version: 1,
};

test.each<[string | null, number, string]>([
  [null, 12, "no month: the latest final"],
  ["2024-11", 11, "a final month"],
  ["2024-12", 12, "the final wins over a forecast of the same month"],
  ["2025-01", 13, "a month with only a forecast"],
])("month %j is %d (%s)", (month, value) => {
  expect(pickValue(DATA, month)).toBe(value);
});

test.each([
  [
    DATA,
    "2030-01",
    "No value for 91201-1-5 in 2030-01 (finals 2024-11 to 2024-12; forecasts 2024-12 to 2025-01).",
  ],
  [
    // Only the recent part a cell needed is cached: its span is not quoted as the series'.
    { ...DATA, fromSeriesStart: false },
    "2030-01",
    "No value for 91201-1-5 in 2030-01 (finals cached 2024-11 to 2024-12 only; earlier months were not fetched; forecasts 2024-12 to 2025-01).",
  ],
  [
    { ...DATA, fromSeriesStart: true },
    "2030-01",
    "No value for 91201-1-5 in 2030-01 (finals 2024-11 to 2024-12; forecasts 2024-12 to 2025-01).",
  ],
  [
    { ...DATA, forecasts: PointColumns.EMPTY },
    "2006-12",
    "No value for 91201-1-5 in 2006-12 (finals 2024-11 to 2024-12).",
  ],
  [
    { ...DATA, finals: PointColumns.EMPTY },
    null,
    "No final values for 91201-1-5 yet (forecasts 2024-12 to 2025-01).",
  ],
  [
    { ...DATA, finals: PointColumns.EMPTY, forecasts: PointColumns.EMPTY },
    null,
    "No final values for 91201-1-5 yet (the series has no values yet).",
  ],
])("#N/A names what exists %#", (data, month, message) => {
  expect(() => pickValue(data, month)).toThrow(expect.objectContaining({ kind: "not_found", message }));
});
