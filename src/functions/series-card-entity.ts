// The card of PCD.SERIES: one series as an Excel entity value. The cell shows the series
// identifier; its card lists the series, the latest final value with its unit, the months
// it spans and its table of values. Property names are single words so that formulas can
// reference them without brackets (=A1.Latest, =A1.LatestMonth); docs/formulas.md lists
// them. A piece the data does not have is a text saying so, never a blank that looks like
// a value.
import type { SeriesData } from "../core/engine-api";
import type { Month } from "../core/model";
import { windowStart } from "../core/series-need";
import { monthIndex } from "../core/months";
import type { FormattedNumberCell } from "./cell-value";
import {
  doubleCell,
  stringCell,
  type ArrayCell,
  type EntityCell,
  type EntityProperty,
  type EntityScalar,
} from "./entity-cell";
import { isoDateToSerial, monthToSerial } from "./excel-dates";
import { DATE_NUMBER_FORMAT } from "./host-capabilities";
import { seriesRows } from "./shape/series-rows";
import { seriesIdentifier, valueHeader } from "./shape/values-table";

/** recent: the Series Values window (13 months and the forecasts); all: every month. */
export type CardScope = "recent" | "all";

export const MONTH_NUMBER_FORMAT = "yyyy-mm";
/** Two decimals at least, four at most: prices and index points read alike, factors keep their precision. */
const VALUE_DIGITS = "#,##0.00##";

/** The property names, in card order (what =A1.<name> accepts). */
export const CARD_PROPERTIES = [
  "Code",
  "Assessment",
  "Product",
  "Coverage",
  "Commodity",
  "Currency",
  "Unit",
  "Latest",
  "LatestMonth",
  "ForecastHorizon",
  "HistoryStart",
  "LastUpdated",
  "Values",
] as const;

export type CardProperty = (typeof CARD_PROPERTIES)[number];

export interface CardOptions {
  scope: CardScope;
  /** Double on ExcelApi 1.19 and later, FormattedNumber on 1.16 to 1.18. */
  numberType: FormattedNumberCell["type"];
}

export const NO_FINAL_YET = "no final value yet";
export const NO_FORECASTS = "no forecasts";
export const HISTORY_NOT_READ = "not read (history argument 1 reads every month)";
export const NOT_STATED = "not stated";
export const NOT_APPLICABLE = "none";

export function buildSeriesCard(data: SeriesData, options: CardOptions): EntityCell {
  const { info } = data;
  const formatted = (value: number, numberFormat: string): FormattedNumberCell => ({
    type: options.numberType,
    basicValue: value,
    numberFormat,
  });
  const month = (value: Month): FormattedNumberCell => formatted(monthToSerial(value), MONTH_NUMBER_FORMAT);
  const currency = data.currency ?? info.defaultCurrency;
  const unit = data.unit ?? info.defaultUnit;
  const latestMonth = data.lastFinal ?? data.finals.lastMonth();
  const latestValue = latestMonth === null ? undefined : data.finals.valueIn(latestMonth);
  const latest =
    latestMonth === null || latestValue === undefined
      ? undefined
      : { month: latestMonth, value: latestValue };
  const horizon = lastForecastMonth(data, latestMonth);
  const updated = data.updatedAt ?? info.updatedAt;
  const updatedSerial = updated === null ? undefined : isoDateToSerial(updated);
  const rows = seriesRows(data).filter(
    (row) =>
      options.scope === "all" || latestMonth === null || monthIndex(row.month) >= windowStart(latestMonth),
  );
  // The first final month: forecasts are not history.
  const firstFinal = rows.find((row) => row.status === "final")?.month;

  const properties: Record<CardProperty, EntityProperty> = {
    Code: stringCell(info.code),
    Assessment: stringCell(info.assessment),
    Product: stringCell(info.productName),
    Coverage: stringCell(info.coverage),
    Commodity: stringCell(info.commodity),
    Currency: stringCell(currency ?? NOT_APPLICABLE),
    Unit: stringCell(unit ?? NOT_APPLICABLE),
    Latest: latest ? formatted(latest.value, valueFormat(currency, unit)) : stringCell(NO_FINAL_YET),
    LatestMonth: latest ? month(latest.month) : stringCell(NO_FINAL_YET),
    ForecastHorizon: horizon ? month(horizon) : stringCell(NO_FORECASTS),
    HistoryStart:
      options.scope === "recent"
        ? stringCell(HISTORY_NOT_READ)
        : firstFinal
          ? month(firstFinal)
          : stringCell(NO_FINAL_YET),
    LastUpdated:
      updatedSerial === undefined
        ? stringCell(updated ?? NOT_STATED)
        : formatted(updatedSerial, DATE_NUMBER_FORMAT),
    Values: valuesArray(data, rows, formatted),
  };
  return {
    type: "Entity",
    text: seriesIdentifier(data),
    properties,
    layouts: {
      card: {
        title: { property: "Assessment" },
        sections: [
          {
            layout: "List",
            properties: ["Latest", "LatestMonth", "ForecastHorizon", "HistoryStart", "LastUpdated"],
          },
          {
            layout: "List",
            title: "Series",
            properties: ["Code", "Product", "Coverage", "Commodity", "Currency", "Unit"],
          },
          { layout: "List", title: "Values", collapsible: true, collapsed: true, properties: ["Values"] },
        ],
      },
    },
  };
}

/**
 * `#,##0.00## "EUR/MWh"`: the number with its currency and unit, so the card reads like
 * the price it is while =A1.Latest stays a number. Quotes and backslashes cannot stand in
 * a quoted format literal, so they are dropped from the unit text.
 */
export function valueFormat(currency: string | null, unit: string | null): string {
  const measure = [currency, unit]
    .filter((part): part is string => Boolean(part))
    .join("/")
    .replace(/["\\]/g, "");
  return measure ? `${VALUE_DIGITS} "${measure}"` : VALUE_DIGITS;
}

/** The last month with a forecast after the latest final (earlier forecasts are superseded). */
function lastForecastMonth(data: SeriesData, latestMonth: Month | null): Month | undefined {
  let last: Month | undefined;
  for (const point of data.forecasts) {
    if (latestMonth !== null && point.month <= latestMonth) continue;
    if (last === undefined || point.month > last) last = point.month;
  }
  return last;
}

/** Date, Value (currency/unit), Status: PCD.VALUES's columns, as typed cells. */
function valuesArray(
  data: SeriesData,
  rows: ReturnType<typeof seriesRows>,
  formatted: (value: number, numberFormat: string) => FormattedNumberCell,
): ArrayCell {
  const header: EntityScalar[] = [stringCell("Date"), stringCell(valueHeader(data)), stringCell("Status")];
  return {
    type: "Array",
    elements: [
      header,
      ...rows.map((row): EntityScalar[] => [
        formatted(monthToSerial(row.month), DATE_NUMBER_FORMAT),
        doubleCell(row.value),
        stringCell(row.status),
      ]),
    ],
  };
}
