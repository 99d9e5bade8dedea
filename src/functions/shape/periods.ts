// The frequency of PCD.VALUES: rows of complete quarters or years, each the average of its
// months. A period is shown only when every one of its months has a value under the
// table's forecast option, so an average never silently covers fewer months.
import type { Month } from "../../core/model";
import type { Frequency } from "../../contracts/formula-options";
import type { SeriesRow } from "./series-rows";

function periodOf(
  month: Month,
  frequency: Exclude<Frequency, "M">,
): { key: string; first: Month; size: number } {
  const year = month.slice(0, 4);
  if (frequency === "Y") return { key: year, first: `${year}-01`, size: 12 };
  const quarter = Math.floor((Number(month.slice(5, 7)) - 1) / 3);
  return { key: `${year}Q${quarter}`, first: `${year}-${String(quarter * 3 + 1).padStart(2, "0")}`, size: 3 };
}

/** Rows (oldest first, one per month) to one row per complete period, oldest first. */
export function aggregateRows(rows: readonly SeriesRow[], frequency: Frequency): SeriesRow[] {
  if (frequency === "M") return [...rows];
  const periods = new Map<string, { first: Month; size: number; rows: SeriesRow[] }>();
  for (const row of rows) {
    const period = periodOf(row.month, frequency);
    const entry = periods.get(period.key) ?? { first: period.first, size: period.size, rows: [] };
    entry.rows.push(row);
    periods.set(period.key, entry);
  }
  const result: SeriesRow[] = [];
  for (const { first, size, rows: months } of periods.values()) {
    if (months.length !== size) continue;
    const value = months.reduce((sum, row) => sum + row.value, 0) / size;
    const status = months.some((row) => row.status === "forecast") ? "forecast" : "final";
    result.push({ month: first, value, status });
  }
  return result.sort((a, b) => (a.month < b.month ? -1 : 1));
}
