// Months are handled as integer indexes counted from 2007-01 (index 0), the start of
// every series (docs/service.md §1). Dates on the wire are the first day of the month.

export const FIRST_YEAR = 2007;

export function monthIndex(year: number, month1: number): number {
  return (year - FIRST_YEAR) * 12 + (month1 - 1);
}

export function monthYear(index: number): { year: number; month1: number } {
  const year = FIRST_YEAR + Math.floor(index / 12);
  const month1 = index - (year - FIRST_YEAR) * 12 + 1;
  return { year, month1 };
}

/** "YYYY-MM-01" for a month index. */
export function monthDate(index: number): string {
  const { year, month1 } = monthYear(index);
  return `${String(year).padStart(4, "0")}-${String(month1).padStart(2, "0")}-01`;
}
