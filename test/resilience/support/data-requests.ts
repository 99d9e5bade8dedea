// How many data requests the workbook's cold keys need on the real service shape, worked
// out from the months each cell reads (the test's own arithmetic, not the engine's). The
// service sells a series in two parts (docs/engine.md): Series Values, the 13 months up to
// the catalog's last_available_final (L-12 .. L) plus the forecasts, and History, the
// months before that window. A key costs one request per part its cells read: a whole
// table both (2), months only before the window one History, only the window or the
// latest value one Series Values.
import type { SeriesInfo } from "../../../src/core/model";
import type { MonthsRead, Workbook } from "./workbook";

export type DataPart = "series_hist" | "series_values";

export interface KeyNeed {
  key: string;
  /** "product|dataset" of the key's series. */
  dataset: string;
  parts: ReadonlySet<DataPart>;
}

const WINDOW_MONTHS = 13;

function indexOf(month: string): number {
  const [year, number] = month.split("-").map(Number);
  return year! * 12 + number! - 1;
}

/** The parts holding the months a cell reads, for a series whose latest final month is `last`. */
export function partsRead(reads: MonthsRead, last: string | null): DataPart[] {
  if (last === null) return ["series_values"];
  const end = indexOf(last);
  const start = end - (WINDOW_MONTHS - 1);
  const from = reads.from === null ? -Infinity : reads.from === "latest" ? end : indexOf(reads.from);
  const to = reads.to === null ? Infinity : indexOf(reads.to);
  const parts: DataPart[] = [];
  if (from < start) parts.push("series_hist");
  if (to >= start) parts.push("series_values");
  return parts;
}

/** Every distinct key of the workbook with the parts its cells read, together. */
export function keyNeeds(book: Workbook): KeyNeed[] {
  const infos = new Map<string, SeriesInfo>(book.series.map((info) => [info.code, info]));
  const needs = new Map<string, { dataset: string; parts: Set<DataPart> }>();
  for (const cell of book.cells) {
    if (cell.source.kind !== "data") continue;
    const { series, reads } = cell.source;
    const info = infos.get(series.split("|")[0]!);
    if (!info) throw new Error(`no catalog entry for ${series}`);
    const need = needs.get(series) ?? { dataset: `${info.product}|${info.coverage}`, parts: new Set() };
    for (const part of partsRead(reads, info.lastAvailableFinal)) need.parts.add(part);
    needs.set(series, need);
  }
  return [...needs].map(([key, { dataset, parts }]) => ({ key, dataset, parts }));
}

/** Keys not cached before the fault (the warm-up cached whole tables of the warm keys). */
export function coldNeeds(book: Workbook): KeyNeed[] {
  return keyNeeds(book).filter((need) => !book.warmSeries.has(need.key));
}

/** Data requests the cold keys need (one per part), optionally only those `accept` takes. */
export function coldRequests(book: Workbook, accept: (need: KeyNeed) => boolean = () => true): number {
  return coldNeeds(book)
    .filter(accept)
    .reduce((total, need) => total + need.parts.size, 0);
}

/** Cold keys whose cells read both parts (whole tables): History, then Series Values. */
export function coldTwoPartKeys(book: Workbook): KeyNeed[] {
  return coldNeeds(book).filter((need) => need.parts.size === 2);
}
