// What a cell needs of its series, in months. The service sells a series in two parts
// (docs/service.md): Series Values, the 13-month window up to the latest final month plus
// the forecasts, and Series Values History, the months before that window (on the real
// service it ends right before the window and has no forecasts). A cell that shows only
// recent months or the latest value must never pay for History, so every cell says which
// months it reads and the engine buys only the parts that hold them.
import type { Month } from "./model";
import { monthIndex } from "./months";

/** Series Values covers the latest final month and the 12 before it. */
export const VALUES_WINDOW_MONTHS = 13;

export interface SeriesNeed {
  /**
   * The first month the cell reads: null = the series' first month (a whole table);
   * "latest" = the latest final month (PCD.VALUE without a date).
   */
  from: Month | "latest" | null;
  /** The last month the cell reads: null = open-ended (the latest final and every forecast). */
  to: Month | null;
}

/** Every month of the series, forecasts included: what a key needs when nothing says less. */
export const WHOLE_SERIES: SeriesNeed = Object.freeze({ from: null, to: null });

/** The latest final value and the forecasts: the Series Values window only. */
export const LATEST_ONLY: SeriesNeed = Object.freeze({ from: "latest", to: null });

/** Which parts of the service hold the months a need names. */
export interface NeededParts {
  /** Months before the Series Values window: Series Values History. */
  history: boolean;
  /** Months inside the window, or forecasts: Series Values. */
  window: boolean;
}

/** Index of the first month of the Series Values window for a series' latest final month. */
export function windowStart(lastAvailableFinal: Month): number {
  return monthIndex(lastAvailableFinal) - (VALUES_WINDOW_MONTHS - 1);
}

/**
 * The parts a need takes, judged against the catalog's latest final month. A series whose
 * latest final month is unknown has no finals yet: Series Values holds all it has.
 */
export function neededParts(need: SeriesNeed, lastAvailableFinal: Month | null): NeededParts {
  if (lastAvailableFinal === null) return { history: false, window: true };
  const start = windowStart(lastAvailableFinal);
  const from = need.from === null ? -Infinity : need.from === "latest" ? start + 12 : monthIndex(need.from);
  const to = need.to === null ? Infinity : monthIndex(need.to);
  return { history: from < start, window: to >= start };
}

/**
 * The need of several cells of one key: the earliest first month and the latest last month.
 * "latest" never reaches before the window, so any explicit month is at least as demanding.
 * When one side already is the union, that object is returned: every cell of a
 * recalculation unions its need into its key's, and most add nothing.
 */
export function unionNeed(a: SeriesNeed, b: SeriesNeed): SeriesNeed {
  let from: SeriesNeed["from"];
  if (a.from === null || b.from === null) from = null;
  else if (a.from === "latest") from = b.from;
  else if (b.from === "latest") from = a.from;
  else from = monthIndex(a.from) <= monthIndex(b.from) ? a.from : b.from;
  let to: Month | null;
  if (a.to === null || b.to === null) to = null;
  else to = monthIndex(a.to) >= monthIndex(b.to) ? a.to : b.to;
  if (from === a.from && to === a.to) return a;
  if (from === b.from && to === b.to) return b;
  return { from, to };
}

export function sameNeed(a: SeriesNeed, b: SeriesNeed): boolean {
  return a.from === b.from && a.to === b.to;
}

/** Reads a stored need back (workbook keys); anything unreadable is the whole series. */
export function readNeed(value: unknown): SeriesNeed {
  if (typeof value !== "object" || value === null) return WHOLE_SERIES;
  const { from, to } = value as { from?: unknown; to?: unknown };
  const month = (text: unknown): text is Month => typeof text === "string" && /^\d{4}-\d{2}$/.test(text);
  const readFrom = from === null || from === "latest" || month(from) ? from : undefined;
  const readTo = to === null || month(to) ? to : undefined;
  if (readFrom === undefined || readTo === undefined) return WHOLE_SERIES;
  return { from: readFrom, to: readTo };
}
