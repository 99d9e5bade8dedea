import type { SeriesData } from "../../../src/core/engine-api";
import {
  DATE_NUMBER_FORMAT,
  PLAIN_SERIAL_DATES,
  hostCapabilitiesFor,
} from "../../../src/functions/host-capabilities";
import {
  buildValuesTable,
  seriesIdentifier,
  valueHeader,
  type ValuesLayout,
} from "../../../src/functions/shape/values-table";
import { makeInfo } from "../../support/series-records";
import { PointColumns } from "../../../src/core/point-columns";
import { monthToSerial } from "../../../src/functions/excel-dates";
import { seriesRows } from "../../../src/functions/shape/series-rows";

// Finals 2024-10..2024-12, forecasts 2024-12 (superseded by the final) and 2025-01..02.
const DATA: SeriesData = {
  key: "live|energy_price|68520-8-1|default|default",
  info: makeInfo({ code: "68520-8-1", assessment: "Natural gas, Germany" }),
  finals: PointColumns.fromPoints([
    { month: "2024-10", value: 10 },
    { month: "2024-11", value: 11 },
    { month: "2024-12", value: 12 },
  ]),
  forecasts: PointColumns.fromPoints([
    { month: "2024-12", value: 99 },
    { month: "2025-01", value: 13 },
    { month: "2025-02", value: 14 },
  ]),
  currency: "EUR",
  unit: "MWh",
  updatedAt: "2025-01-06",
  lastFinal: "2024-12",
  fetchedAt: 0,
  version: 1,
};

const S = { "2024-10": 45566, "2024-11": 45597, "2024-12": 45627, "2025-01": 45658, "2025-02": 45689 };
const DEFAULTS: ValuesLayout = { start: null, end: null, headers: 1, forecast: 1, order: 0 };

test.each<[string, Partial<ValuesLayout>, unknown[][]]>([
  [
    "defaults: headers, finals then forecasts, Status column, oldest first",
    {},
    [
      ["Date", "Value (EUR/MWh)", "Status"],
      [S["2024-10"], 10, "final"],
      [S["2024-11"], 11, "final"],
      [S["2024-12"], 12, "final"],
      [S["2025-01"], 13, "forecast"],
      [S["2025-02"], 14, "forecast"],
    ],
  ],
  [
    "headers 0, finals only (no Status column)",
    { headers: 0, forecast: 0 },
    [
      [S["2024-10"], 10],
      [S["2024-11"], 11],
      [S["2024-12"], 12],
    ],
  ],
  [
    "forecasts only, newest first",
    { forecast: 2, order: 1 },
    [
      ["Date", "Value (EUR/MWh)", "Status"],
      [S["2025-02"], 14, "forecast"],
      [S["2025-01"], 13, "forecast"],
    ],
  ],
  [
    "headers 2: identifier line padded to the table width",
    { headers: 2, forecast: 0, start: "2024-12" },
    [
      ["68520-8-1 Natural gas, Germany (EUR/MWh)", ""],
      ["Date", "Value (EUR/MWh)"],
      [S["2024-12"], 12],
    ],
  ],
  [
    "start and end bound the months inclusively",
    { start: "2024-11", end: "2025-01", headers: 0 },
    [
      [S["2024-11"], 11, "final"],
      [S["2024-12"], 12, "final"],
      [S["2025-01"], 13, "forecast"],
    ],
  ],
])("%s", (_label, layout, expected) => {
  expect(buildValuesTable(DATA, { ...DEFAULTS, ...layout }, PLAIN_SERIAL_DATES)).toEqual(expected);
});

test("dates are formatted numbers where the host supports them", () => {
  const host = hostCapabilitiesFor({ isSetSupported: (name) => name === "CustomFunctionsRuntime" });
  const table = buildValuesTable(DATA, { ...DEFAULTS, headers: 0, end: "2024-10" }, host);
  expect(table).toEqual([
    [{ type: "FormattedNumber", basicValue: S["2024-10"], numberFormat: DATE_NUMBER_FORMAT }, 10, "final"],
  ]);
});

test.each<[Partial<ValuesLayout>, string]>([
  [
    { start: "2030-01", end: "2030-12" },
    "No values for 68520-8-1 between 2030-01 and 2030-12 (data runs 2024-10 to 2025-02).",
  ],
  [
    { forecast: 0, start: "2025-01" },
    "No final values for 68520-8-1 between 2025-01 and the last month (data runs 2024-10 to 2025-02).",
  ],
  [
    { forecast: 2, end: "2024-12" },
    "No forecast values for 68520-8-1 between the first month and 2024-12 (data runs 2024-10 to 2025-02).",
  ],
])("no rows after filtering is #N/A saying what exists: %j", (layout, message) => {
  expect(() => buildValuesTable(DATA, { ...DEFAULTS, ...layout }, PLAIN_SERIAL_DATES)).toThrow(
    expect.objectContaining({ kind: "not_found", message }),
  );
});

test("an empty series says it has no values", () => {
  const empty = { ...DATA, finals: PointColumns.EMPTY, forecasts: PointColumns.EMPTY };
  expect(() => buildValuesTable(empty, DEFAULTS, PLAIN_SERIAL_DATES)).toThrow(
    "No values for 68520-8-1 between the first month and the last month (the series has no values yet).",
  );
});

test.each([
  [{ currency: "USD", unit: "kWh" }, "68520-8-1 Natural gas, Germany (USD/kWh)"],
  [{ currency: null, unit: null }, "68520-8-1 Natural gas, Germany (EUR/MWh)"],
  [
    {
      currency: null,
      unit: null,
      info: makeInfo({
        code: "1-2-3",
        assessment: "Location factor",
        defaultCurrency: null,
        defaultUnit: null,
      }),
    },
    "1-2-3 Location factor",
  ],
])("identifier line %#", (overrides, line) => {
  expect(seriesIdentifier({ ...DATA, ...overrides })).toBe(line);
});

test.each([
  ["converted: the applied currency and unit", { currency: "USD", unit: "kWh" }, "Value (USD/kWh)"],
  ["not reported: the series defaults", { currency: null, unit: null }, "Value (EUR/MWh)"],
  [
    "only a currency",
    { currency: "GBP", unit: null, info: makeInfo({ code: "68520-8-1", defaultUnit: null }) },
    "Value (GBP)",
  ],
  [
    "neither (a location factor): plain Value",
    {
      currency: null,
      unit: null,
      info: makeInfo({ code: "1-2-3", defaultCurrency: null, defaultUnit: null }),
    },
    "Value",
  ],
])("the Value header names the measure: %s", (_label, overrides, header) => {
  expect(valueHeader({ ...DATA, ...overrides })).toBe(header);
  const table = buildValuesTable({ ...DATA, ...overrides }, { ...DEFAULTS, forecast: 0 }, PLAIN_SERIAL_DATES);
  expect(table[0]).toEqual(["Date", header]);
});

// Monthly tables are cut from the columns without a row object per month: every layout
// must give the rows seriesRows gives, filtered by the layout (the way tables were cut
// before), in its order. Finals with a gap, a forecast superseded by its final, and a
// forecast inside the gap.
describe("monthly tables agree with the series' rows for every layout", () => {
  const GAPPY: SeriesData = {
    ...DATA,
    version: 41,
    finals: PointColumns.fromPoints([
      { month: "2023-11", value: 1.5 },
      { month: "2023-12", value: 2.25 },
      { month: "2024-03", value: 3 },
      { month: "2024-04", value: 4 },
    ]),
    forecasts: PointColumns.fromPoints([
      { month: "2024-01", value: 91 },
      { month: "2024-04", value: 94 },
      { month: "2024-05", value: 5 },
      { month: "2024-06", value: 6 },
    ]),
  };
  const rows = seriesRows(GAPPY);
  const layouts: ValuesLayout[] = [];
  for (const headers of [0, 1, 2] as const)
    for (const forecast of [0, 1, 2] as const)
      for (const order of [0, 1] as const)
        for (const [start, end] of [
          [null, null],
          ["2023-12", "2024-04"],
          ["2024-01", null],
          [null, "2024-02"],
          ["2024-04", "2024-04"],
        ] as const)
          layouts.push({ start, end, headers, forecast, order });

  test.each(layouts.map((layout) => [JSON.stringify(layout), layout] as const))("%s", (_name, layout) => {
    const kept = rows.filter(
      (row) =>
        (layout.forecast === 0
          ? row.status === "final"
          : layout.forecast === 2
            ? row.status === "forecast"
            : true) &&
        (layout.start === null || row.month >= layout.start) &&
        (layout.end === null || row.month <= layout.end),
    );
    if (layout.order === 1) kept.reverse();
    const withStatus = layout.forecast !== 0;
    const body = kept.map((row) =>
      withStatus ? [monthToSerial(row.month), row.value, row.status] : [monthToSerial(row.month), row.value],
    );
    const head: unknown[][] = [];
    if (layout.headers === 2)
      head.push(withStatus ? [seriesIdentifier(GAPPY), "", ""] : [seriesIdentifier(GAPPY), ""]);
    if (layout.headers >= 1)
      head.push(withStatus ? ["Date", valueHeader(GAPPY), "Status"] : ["Date", valueHeader(GAPPY)]);
    if (body.length === 0) {
      // The message names what the series does hold.
      expect(() => buildValuesTable(GAPPY, layout, PLAIN_SERIAL_DATES)).toThrow(
        /^No (final |forecast )?values for 68520-8-1 between .* \(data runs 2023-11 to 2024-06\)\.$/,
      );
    } else {
      expect(buildValuesTable(GAPPY, layout, PLAIN_SERIAL_DATES)).toEqual([...head, ...body]);
    }
  });
});
