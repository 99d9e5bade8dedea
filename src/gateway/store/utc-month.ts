// Budgets and usage reports count by calendar month in UTC, whatever the server's time zone.

export interface MonthRange {
  /** First instant of the month. */
  start: Date;
  /** First instant of the next month. */
  end: Date;
}

export function monthHolding(at: Date): MonthRange {
  return {
    start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
  };
}

/** "YYYY-MM" to its range; null when the text is not such a month. */
export function parseMonth(text: string): MonthRange | null {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  if (match === null) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return monthHolding(new Date(Date.UTC(Number(match[1]), month - 1, 1)));
}

/** The "YYYY-MM" that holds `at`. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}
