// "Write report": the release's changes (src/core/release-changes.ts) as a sheet
// "PCD changes <YYYY-MM>", grouped as the pane lists them (changes-by-series.ts): by series
// code and month, the biggest revisions first (|change %| descending), then revisions from
// 0 (no change %), then new months (by series, oldest first), so a reviewer reads the
// surprises first. A month the workbook asks for in several currencies or units takes one
// row per currency and unit, on adjacent rows: each row's old and new values stay numbers
// in one currency and unit, which a reviewer can filter, sort and sum.
import type { SeriesReleaseChanges } from "../core/release-changes";
import { changesBySeries } from "./changes-by-series";
import type { CellScalar, SheetLimits } from "./workbook-host";

export const REPORT_HEADER = [
  "Series",
  "Currency",
  "Unit",
  "Month",
  "Change",
  "Old value",
  "New value",
  "Change %",
] as const;

export interface ReportRow {
  code: string;
  currency: string | null;
  unit: string | null;
  month: string;
  kind: "new" | "revised";
  before: number | null;
  after: number;
  changePercent: number | null;
}

/** The sheet's name for a refresh that finished at `finishedAt` (its month, UTC). */
export function reportSheetName(finishedAt: number): string {
  return `PCD changes ${new Date(finishedAt).toISOString().slice(0, 7)}`;
}

const lineId = (code: string, month: string): string => `${code}|${month}`;

/** The rows in the order of the pane's month lines; a line's currencies and units in the order they came. */
export function reportRows(changes: readonly SeriesReleaseChanges[]): ReportRow[] {
  const position = new Map(
    changesBySeries(changes).lines.map((line, index) => [lineId(line.code, line.month), index]),
  );
  const at = (row: ReportRow): number => position.get(lineId(row.code, row.month)) ?? position.size;
  const rows = changes.flatMap((series) =>
    series.months.map((month): ReportRow => ({
      code: series.code,
      currency: series.currency,
      unit: series.unit,
      ...month,
    })),
  );
  // Array sort is stable: rows of one line keep the order their request keys came in.
  return rows.sort((a, b) => at(a) - at(b));
}

/** Change % rounded for people (two decimals); the old and new values are as the service sent them. */
export function roundedPercent(percent: number | null): number | string {
  return percent === null ? "" : Math.round(percent * 100) / 100;
}

export function reportTable(changes: readonly SeriesReleaseChanges[]): CellScalar[][] {
  return [
    [...REPORT_HEADER],
    ...reportRows(changes).map((row) => [
      row.code,
      row.currency ?? "",
      row.unit ?? "",
      row.month,
      row.kind === "new" ? "new month" : "revised",
      row.before ?? "",
      row.after,
      roundedPercent(row.changePercent),
    ]),
  ];
}

// Made on first use: the first Intl formatter of a page costs about 30 ms (its locale data is
// loaded), and this module loads with the ribbon's commands when Excel starts.
let count: Intl.NumberFormat | undefined;
const countText = (value: number): string => (count ??= new Intl.NumberFormat("en-US")).format(value);

/**
 * Why the report does not fit a sheet here (rows and columns, header included), saying
 * what to do, or null when it fits.
 */
export function reportTooLarge(
  table: readonly (readonly CellScalar[])[],
  limits: SheetLimits,
): string | null {
  const rows = table.length;
  const columns = Math.max(0, ...table.map((row) => row.length));
  if (rows <= limits.rows && columns <= limits.columns) return null;
  const needs =
    rows > limits.rows
      ? `The report needs ${countText(rows)} rows; a sheet here holds ${countText(limits.rows)}.`
      : `The report needs ${countText(columns)} columns; a sheet here holds ${countText(limits.columns)}.`;
  return `${needs} Nothing was written. Write the report in Excel (a sheet there holds 1,048,576 rows), or refresh fewer series at a time.`;
}
