// The spilled table of PCD.VALUES: optional series line, optional column headers, then
// one row per month (Date, Value, and Status when forecasts are included).
import type { SeriesData } from "../../core/engine-api";
import { PcdError } from "../../core/errors";
import type { Month } from "../../core/model";
import { monthIndex, monthOfIndex } from "../../core/months";
import type { ForecastOption, Frequency, HeadersOption, OrderOption } from "../../contracts/formula-options";
import type { CellTable, CellValue } from "../cell-value";
import { monthToSerial } from "../excel-dates";
import type { HostCapabilities } from "../host-capabilities";
import { aggregateRows } from "./periods";
import { seriesMemo } from "./series-memo";
import { describeSpan, seriesRows, walkTimeline, type SeriesRow } from "./series-rows";

export interface ValuesLayout {
  start: Month | null;
  end: Month | null;
  headers: HeadersOption;
  forecast: ForecastOption;
  order: OrderOption;
  /** "M" monthly rows (default), "Q" / "Y" averages of complete periods. */
  frequency?: Frequency;
}

/**
 * The table of a layout. Built once per series version, layout and host, and shared
 * (frozen) by every cell that shows it: thousands of cells showing one series cost one
 * table, and an unchanged result is the same object (src/functions/streaming-cell.ts).
 */
export function buildValuesTable(data: SeriesData, layout: ValuesLayout, host: HostCapabilities): CellTable {
  const memo = seriesMemo(data);
  // A text, not an array joined: this runs for every cell on every recalculation. The header
  // names the measure, which the catalog can fill in for a version.
  const identifier = layout.headers === 2 ? seriesIdentifier(data) : "";
  const header = layout.headers >= 1 ? valueHeader(data) : "";
  const layoutKey = `${layout.start}|${layout.end}|${layout.headers}|${layout.forecast}|${layout.order}|${layout.frequency ?? "M"}|${identifier}|${header}`;
  return memo.table(layoutKey, host, () => shapeValuesTable(data, layout, host));
}

function shapeValuesTable(data: SeriesData, layout: ValuesLayout, host: HostCapabilities): CellTable {
  const withStatus = layout.forecast !== 0;
  const width = withStatus ? 3 : 2;
  const headers: CellValue[][] = [];
  if (layout.headers === 2) headers.push(padRow([seriesIdentifier(data)], width));
  if (layout.headers >= 1) {
    const value = valueHeader(data);
    headers.push(withStatus ? ["Date", value, "Status"] : ["Date", value]);
  }
  const frequency = layout.frequency ?? "M";
  return frequency === "M"
    ? monthlyTable(data, layout, host, headers)
    : periodTable(data, layout, host, headers, frequency);
}

/**
 * A table of months, cut from the series' columns: one walk counts the rows, a second
 * fills them, with no row object per month on the way. Every array is made at its final
 * length: the table is kept as long as its series version (series-memo.ts), and a row grown
 * by push kept room for about 17 more cells, which made the tables the largest part of a
 * large workbook's memory.
 */
function monthlyTable(
  data: SeriesData,
  layout: ValuesLayout,
  host: HostCapabilities,
  headers: CellValue[][],
): CellTable {
  const from = layout.start === null ? -Infinity : monthIndex(layout.start);
  const to = layout.end === null ? Infinity : monthIndex(layout.end);
  const keeps = (index: number, final: boolean): boolean =>
    index >= from && index <= to && (final ? layout.forecast !== 2 : layout.forecast !== 0);
  let count = 0;
  walkTimeline(data, (index, _value, final) => {
    if (keeps(index, final)) count += 1;
  });
  if (count === 0) throw noValues(data, layout, seriesRows(data));
  const withStatus = layout.forecast !== 0;
  const table: CellTable = new Array<CellValue[]>(headers.length + count);
  headers.forEach((header, index) => (table[index] = header));
  let row = 0;
  walkTimeline(data, (index, value, final) => {
    if (!keeps(index, final)) return;
    const date = host.dateCell(monthToSerial(monthOfIndex(index)));
    const at = headers.length + (layout.order === 1 ? count - 1 - row : row);
    table[at] = withStatus ? [date, value, final ? "final" : "forecast"] : [date, value];
    row += 1;
  });
  return table;
}

/** A table of complete quarters or years (periods.ts), from the series' rows. */
function periodTable(
  data: SeriesData,
  layout: ValuesLayout,
  host: HostCapabilities,
  headers: CellValue[][],
  frequency: Exclude<Frequency, "M">,
): CellTable {
  const all = seriesRows(data);
  const rows = aggregateRows(
    all.filter((row) => keepRow(row, layout)),
    frequency,
  );
  if (rows.length === 0) throw noValues(data, layout, all);
  if (layout.order === 1) rows.reverse();
  const withStatus = layout.forecast !== 0;
  const table: CellTable = new Array<CellValue[]>(headers.length + rows.length);
  headers.forEach((header, index) => (table[index] = header));
  rows.forEach((row, index) => {
    const date = host.dateCell(monthToSerial(row.month));
    table[headers.length + index] = withStatus ? [date, row.value, row.status] : [date, row.value];
  });
  return table;
}

/** "<code> <assessment> (<currency>/<unit>)", the STOCKHISTORY-style identifier line. */
export function seriesIdentifier(data: SeriesData): string {
  const measure = appliedMeasure(data);
  const base = `${data.info.code} ${data.info.assessment}`.trim();
  return measure ? `${base} (${measure})` : base;
}

/**
 * "Value (EUR/MWh)": the Value column names the currency and unit the service applied, so
 * a table converted with currency/unit arguments cannot be read in the series' default.
 * Series without either (cost indices, location factors) keep the plain "Value".
 */
export function valueHeader(data: SeriesData): string {
  const measure = appliedMeasure(data);
  return measure ? `Value (${measure})` : "Value";
}

/** "EUR/MWh": the applied currency and unit, falling back to the series defaults. */
function appliedMeasure(data: SeriesData): string {
  const currency = data.currency ?? data.info.defaultCurrency;
  const unit = data.unit ?? data.info.defaultUnit;
  return [currency, unit].filter((part): part is string => Boolean(part)).join("/");
}

function keepRow(row: SeriesRow, layout: ValuesLayout): boolean {
  if (layout.forecast === 0 && row.status !== "final") return false;
  if (layout.forecast === 2 && row.status !== "forecast") return false;
  if (layout.start !== null && row.month < layout.start) return false;
  if (layout.end !== null && row.month > layout.end) return false;
  return true;
}

function noValues(data: SeriesData, layout: ValuesLayout, all: readonly SeriesRow[]): PcdError {
  const values =
    layout.forecast === 0 ? "final values" : layout.forecast === 2 ? "forecast values" : "values";
  const period = layout.frequency === "Q" ? "quarter" : layout.frequency === "Y" ? "year" : null;
  const kind = period === null ? values : `complete ${period} of ${values}`;
  const start = layout.start ?? "the first month";
  const end = layout.end ?? "the last month";
  return new PcdError(
    "not_found",
    `No ${kind} for ${data.info.code} between ${start} and ${end} (${describeSpan(all)}).`,
  );
}

function padRow(cells: CellValue[], width: number): CellValue[] {
  return [...cells, ...Array<CellValue>(Math.max(0, width - cells.length)).fill("")];
}
