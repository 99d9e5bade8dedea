// What a cell reads of its series, in months, and which parts of the service hold those
// months: the benchmark's own account of the need-based lower bound (docs/service.md: Series
// Values holds the 13 months up to the latest final and the forecasts; History the months
// before, on the real service ending right before that window). Written independently of
// the engine's planner, so that a mistake in one is caught by the other.

/** First month read: null = the series' first month; "latest" = the latest final month only. */
export type ReadFrom = string | "latest" | null;

export interface Reads {
  from: ReadFrom;
  /** Last month read ("YYYY-MM"); null = open-ended (latest final and forecasts). */
  to: string | null;
}

export const WHOLE: Reads = { from: null, to: null };
export const LATEST: Reads = { from: "latest", to: null };

function index(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

/** The union of two cells' reads of one key. */
export function widen(a: Reads, b: Reads): Reads {
  const from =
    a.from === null || b.from === null
      ? null
      : a.from === "latest"
        ? b.from
        : b.from === "latest"
          ? a.from
          : index(a.from) <= index(b.from)
            ? a.from
            : b.from;
  const to = a.to === null || b.to === null ? null : index(a.to) >= index(b.to) ? a.to : b.to;
  return { from, to };
}

export interface Parts {
  history: boolean;
  window: boolean;
}

/** The parts the months need, for a series whose latest final is `lastFinal` ("YYYY-MM[-DD]" or ""). */
export function partsFor(reads: Reads, lastFinal: string): Parts {
  if (lastFinal === "") return { history: false, window: true };
  const windowStart = index(lastFinal) - 12;
  const from =
    reads.from === null ? -Infinity : reads.from === "latest" ? index(lastFinal) : index(reads.from);
  const to = reads.to === null ? Infinity : index(reads.to);
  return { history: from < windowStart, window: to >= windowStart };
}

/** Whether the months a key read before a release are still held after it (no History needed). */
export function olderMonthsHeld(reads: Reads, lastFinalBefore: string, boughtHistory: boolean): boolean {
  if (boughtHistory) return true;
  if (reads.from === null) return false;
  if (reads.from === "latest" || lastFinalBefore === "") return true;
  return index(reads.from) >= index(lastFinalBefore) - 12;
}
