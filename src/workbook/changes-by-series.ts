// The release's changes as a person reads them: by series code, one line per month, with
// the value in each currency and unit the workbook asks for beside each other. The service
// sends a series once per request key (code, currency, unit), so a revision of one month
// arrives once per key; counted per key, one revised month of a series asked for in EUR/MWh
// and EUR/MMBtu would read as two revisions in two series.
import type { SeriesReleaseChanges } from "../core/release-changes";

/** One request key's value of a month: "EUR/MWh" (empty for series without currency and unit). */
export interface KeyValue {
  basis: string;
  before: number | null;
  after: number;
  changePercent: number | null;
}

export interface MonthChangeLine {
  code: string;
  month: string;
  kind: "new" | "revised";
  /** One per request key, in the order the keys came. */
  values: KeyValue[];
}

export interface ChangesBySeries {
  /** Series (codes) with a change. */
  series: number;
  /** Months added, counted once per code. */
  newMonths: number;
  /** Months revised, counted once per code. */
  revisedMonths: number;
  /** Biggest |change %| first, then revisions from 0, then new months (by code, oldest first). */
  lines: MonthChangeLine[];
}

/** "EUR/MWh", "EUR", "MWh" or "" (an index or factor series). */
export function basisOf(currency: string | null, unit: string | null): string {
  return [currency, unit].filter(Boolean).join("/");
}

function biggestPercent(line: MonthChangeLine): number {
  return Math.max(0, ...line.values.map((value) => Math.abs(value.changePercent ?? 0)));
}

function rank(line: MonthChangeLine): number {
  if (line.kind === "new") return 2;
  return line.values.every((value) => value.changePercent === null) ? 1 : 0;
}

export function changesBySeries(changes: readonly SeriesReleaseChanges[]): ChangesBySeries {
  const lines = new Map<string, MonthChangeLine>();
  for (const series of changes) {
    for (const month of series.months) {
      const id = `${series.code}|${month.month}`;
      const line = lines.get(id) ?? { code: series.code, month: month.month, kind: month.kind, values: [] };
      // A month new for one key and revised for another is a revision: history moved.
      if (month.kind === "revised") line.kind = "revised";
      line.values.push({
        basis: basisOf(series.currency, series.unit),
        before: month.before,
        after: month.after,
        changePercent: month.changePercent,
      });
      lines.set(id, line);
    }
  }
  const sorted = [...lines.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      biggestPercent(b) - biggestPercent(a) ||
      a.code.localeCompare(b.code) ||
      a.month.localeCompare(b.month),
  );
  return {
    series: new Set(sorted.map((line) => line.code)).size,
    newMonths: sorted.filter((line) => line.kind === "new").length,
    revisedMonths: sorted.filter((line) => line.kind === "revised").length,
    lines: sorted,
  };
}
