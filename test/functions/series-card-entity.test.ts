// The PCD.SERIES card builder: every property from one version of a series, formatted
// numbers with their unit, and a text for every piece the data does not have.
import type { SeriesData } from "../../src/core/engine-api";
import type { SeriesInfo } from "../../src/core/model";
import type { EntityCell, EntityProperty } from "../../src/functions/entity-cell";
import { monthToSerial, isoDateToSerial } from "../../src/functions/excel-dates";
import { DATE_NUMBER_FORMAT } from "../../src/functions/host-capabilities";
import {
  buildSeriesCard,
  CARD_PROPERTIES,
  HISTORY_NOT_READ,
  MONTH_NUMBER_FORMAT,
  NO_FINAL_YET,
  NO_FORECASTS,
  NOT_APPLICABLE,
  NOT_STATED,
  valueFormat,
  type CardOptions,
} from "../../src/functions/series-card-entity";
import { points, seriesInfo } from "../core/support/series-fixtures";
import { PointColumns } from "../../src/core/point-columns";

const CODE = "68520-8-1";

/** Finals 2024-01..2026-10 (value = 100 + month number), forecasts 2026-11..2027-04. */
function data(overrides: Partial<SeriesData> = {}, info: Partial<SeriesInfo> = {}): SeriesData {
  const valueOf = (month: string): number => 100 + Number(month.slice(5));
  return {
    key: `live|energy_price|${CODE}|default|default`,
    info: seriesInfo({ code: CODE, assessment: "TTF day-ahead", productName: "Energy Price", ...info }),
    finals: PointColumns.fromPoints(points("2024-01", "2026-10", valueOf)),
    forecasts: PointColumns.fromPoints(points("2026-11", "2027-04", () => 130.5)),
    currency: "EUR",
    unit: "MWh",
    updatedAt: "2026-11-04",
    lastFinal: "2026-10",
    fetchedAt: 0,
    version: 1,
    ...overrides,
  };
}

const RECENT: CardOptions = { scope: "recent", numberType: "Double" };
const ALL: CardOptions = { scope: "all", numberType: "Double" };

const month = (value: string, type: "Double" | "FormattedNumber" = "Double"): EntityProperty => ({
  type,
  basicValue: monthToSerial(value as `${number}-${number}`),
  numberFormat: MONTH_NUMBER_FORMAT,
});
const text = (value: string): EntityProperty => ({ type: "String", basicValue: value });

test.each<[string, SeriesData, CardOptions, Partial<Record<string, EntityProperty>>]>([
  [
    "a priced series, recent months",
    data(),
    RECENT,
    {
      Code: text(CODE),
      Assessment: text("TTF day-ahead"),
      Product: text("Energy Price"),
      Coverage: text("Germany"),
      Commodity: text("Natural gas"),
      Currency: text("EUR"),
      Unit: text("MWh"),
      Latest: { type: "Double", basicValue: 110, numberFormat: '#,##0.00## "EUR/MWh"' },
      LatestMonth: month("2026-10"),
      ForecastHorizon: month("2027-04"),
      HistoryStart: text(HISTORY_NOT_READ),
      LastUpdated: {
        type: "Double",
        basicValue: isoDateToSerial("2026-11-04")!,
        numberFormat: DATE_NUMBER_FORMAT,
      },
    },
  ],
  ["every month: the history start is known", data(), ALL, { HistoryStart: month("2024-01") }],
  [
    "ExcelApi 1.16 to 1.18: FormattedNumber",
    data(),
    { scope: "recent", numberType: "FormattedNumber" },
    {
      Latest: { type: "FormattedNumber", basicValue: 110, numberFormat: '#,##0.00## "EUR/MWh"' },
      LatestMonth: month("2026-10", "FormattedNumber"),
    },
  ],
  [
    "no final yet",
    data({ finals: PointColumns.EMPTY, lastFinal: null }),
    ALL,
    {
      Latest: text(NO_FINAL_YET),
      LatestMonth: text(NO_FINAL_YET),
      ForecastHorizon: month("2027-04"),
      HistoryStart: text(NO_FINAL_YET),
    },
  ],
  ["no forecasts", data({ forecasts: PointColumns.EMPTY }), RECENT, { ForecastHorizon: text(NO_FORECASTS) }],
  [
    "forecasts only for months that have finals now",
    data({ forecasts: PointColumns.fromPoints(points("2026-09", "2026-10", () => 1)) }),
    RECENT,
    { ForecastHorizon: text(NO_FORECASTS) },
  ],
  [
    "a cost index: no currency or unit",
    data({ currency: null, unit: null }, { defaultCurrency: null, defaultUnit: null }),
    RECENT,
    {
      Currency: text(NOT_APPLICABLE),
      Unit: text(NOT_APPLICABLE),
      Latest: { type: "Double", basicValue: 110, numberFormat: "#,##0.00##" },
    },
  ],
  [
    "the applied currency falls back to the series default",
    data({ currency: null, unit: null }, { defaultCurrency: "USD", defaultUnit: "mt" }),
    RECENT,
    { Currency: text("USD"), Unit: text("mt") },
  ],
  [
    "no update date",
    data({ updatedAt: null }, { updatedAt: null }),
    RECENT,
    { LastUpdated: text(NOT_STATED) },
  ],
  [
    "an unreadable update date stays as sent",
    data({ updatedAt: "soon" }),
    RECENT,
    { LastUpdated: text("soon") },
  ],
  [
    "the series' latest final month comes from the data, not the last point",
    data({ lastFinal: "2026-09" }),
    RECENT,
    {
      LatestMonth: month("2026-09"),
      Latest: { type: "Double", basicValue: 109, numberFormat: '#,##0.00## "EUR/MWh"' },
    },
  ],
])("%s", (_case, series, options, expected) => {
  const card = buildSeriesCard(series, options);
  expect(card.properties).toMatchObject(expected);
});

test.each<[string, SeriesData, CardOptions, number, string | undefined]>([
  // 2025-10..2026-10 (13 finals) and 6 forecasts.
  ["recent: the Series Values window and the forecasts", data(), RECENT, 19, "2025-10"],
  // 34 finals and 6 forecasts.
  ["all: every month", data(), ALL, 40, "2024-01"],
  [
    "recent without finals: the forecasts",
    data({ finals: PointColumns.EMPTY, lastFinal: null }),
    RECENT,
    6,
    "2026-11",
  ],
  [
    "no values at all: the header only",
    data({ finals: PointColumns.EMPTY, forecasts: PointColumns.EMPTY, lastFinal: null }),
    ALL,
    0,
    undefined,
  ],
])("Values, %s", (_case, series, options, rows, first) => {
  const values = buildSeriesCard(series, options).properties.Values;
  if (values?.type !== "Array") throw new Error("Values is not an array");
  const [header, ...body] = values.elements;
  expect(header).toEqual([text("Date"), text("Value (EUR/MWh)"), text("Status")]);
  expect(body).toHaveLength(rows);
  for (const row of body) expect(row).toHaveLength(3);
  if (first !== undefined) {
    expect(body[0]?.[0]).toEqual({
      type: "Double",
      basicValue: monthToSerial(first as `${number}-${number}`),
      numberFormat: DATE_NUMBER_FORMAT,
    });
  }
  const statuses = new Set(body.map((row) => (row[2]?.type === "String" ? row[2].basicValue : "?")));
  expect([...statuses].every((status) => status === "final" || status === "forecast")).toBe(true);
});

test("a forecast row says so, and a final supersedes the forecast of its month", () => {
  const series = data({ forecasts: PointColumns.fromPoints(points("2026-10", "2026-11", () => 999)) });
  const values = buildSeriesCard(series, RECENT).properties.Values;
  if (values?.type !== "Array") throw new Error("Values is not an array");
  const rows = values.elements.slice(1).map((row) => row.map((cell) => cell.basicValue));
  expect(rows.slice(-2)).toEqual([
    [monthToSerial("2026-10"), 110, "final"],
    [monthToSerial("2026-11"), 999, "forecast"],
  ]);
});

test("every property is on the card once and is a name =A1.Name can reference", () => {
  const card = buildSeriesCard(data(), RECENT);
  expect(Object.keys(card.properties)).toEqual([...CARD_PROPERTIES]);
  const onCard = card.layouts.card.sections.flatMap((section) => section.properties);
  expect([...onCard].sort()).toEqual([...CARD_PROPERTIES].filter((name) => name !== "Assessment").sort());
  expect(card.layouts.card.title).toEqual({ property: "Assessment" });
  // Letters and digits only: no brackets needed in a formula.
  for (const name of CARD_PROPERTIES) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
  // Every value inside an entity is typed (Excel refuses bare strings and numbers there).
  for (const property of Object.values(card.properties)) expect(typeof property).toBe("object");
});

test("the cell shows the series identifier", () => {
  expect(buildSeriesCard(data(), RECENT).text).toBe(`${CODE} TTF day-ahead (EUR/MWh)`);
});

test.each<[string | null, string | null, string]>([
  ["EUR", "MWh", '#,##0.00## "EUR/MWh"'],
  ["USD cent", "lb", '#,##0.00## "USD cent/lb"'],
  [null, "index", '#,##0.00## "index"'],
  [null, null, "#,##0.00##"],
  // A quote would end the literal early: dropped.
  ['EUR"', "M\\Wh", '#,##0.00## "EUR/MWh"'],
])("value format for %s / %s", (currency, unit, expected) => {
  expect(valueFormat(currency, unit)).toBe(expected);
});

test("the card is an Excel.EntityCellValue as Office.js types it", () => {
  // Compile-time: the assignment fails type checking if the card's shape drifts from Office.js's.
  const card: EntityCell = buildSeriesCard(data(), RECENT);
  const asOffice: Excel.EntityCellValue = card;
  expect(asOffice.type).toBe("Entity");
});
