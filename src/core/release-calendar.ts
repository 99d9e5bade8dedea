// The monthly release's moment (docs/service.md §8.3): 06:00 US Central on the Nth business
// day (Monday to Friday) of the month. There is no holiday calendar: the vendor publishes none,
// and a holiday would only move the real release a day later than we expect. Apart from
// schedule.ts (which the engine uses) because the gateway counts members' budgets by it and
// imports nothing of the engine's.
import { calendarWeekday, centralParts, centralToEpoch } from "./central-time";

/** The hour (US Central) release-day and maintenance downtime begin. */
export const WINDOW_START_HOUR = 6;

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addMonths(year: number, month: number, delta: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The Nth Monday-to-Friday of a month (no holiday calendar, see the file comment). */
export function releaseDay(year: number, month: number, businessDay: number): CalendarDay {
  if (!Number.isInteger(businessDay) || businessDay < 1) {
    throw new RangeError(`releaseDay: businessDay must be a positive integer, got ${businessDay}`);
  }
  let counted = 0;
  const last = daysInMonth(year, month);
  for (let day = 1; day <= last; day++) {
    const weekday = calendarWeekday(year, month, day);
    if (weekday === 0 || weekday === 6) continue;
    counted++;
    if (counted === businessDay) return { year, month, day };
  }
  throw new RangeError(`releaseDay: ${year}-${month} has fewer than ${businessDay} business days`);
}

/** Epoch ms of 06:00 Central on the release day of a month (month 1-12). */
export function releaseStartOf(year: number, month: number, businessDay: number): number {
  const day = releaseDay(year, month, businessDay);
  return centralToEpoch(day.year, day.month, day.day, WINDOW_START_HOUR, 0);
}

/** Epoch ms of the most recent release day 06:00 Central at or before `now`. */
export function latestReleaseStart(now: number, releaseBusinessDay: number): number {
  const p = centralParts(now);
  const thisMonth = releaseStartOf(p.year, p.month, releaseBusinessDay);
  if (thisMonth <= now) return thisMonth;
  const previous = addMonths(p.year, p.month, -1);
  return releaseStartOf(previous.year, previous.month, releaseBusinessDay);
}

/** Epoch ms of the first release day 06:00 Central strictly after `now`. */
export function nextReleaseStart(now: number, releaseBusinessDay: number): number {
  const p = centralParts(now);
  const thisMonth = releaseStartOf(p.year, p.month, releaseBusinessDay);
  if (thisMonth > now) return thisMonth;
  const next = addMonths(p.year, p.month, 1);
  return releaseStartOf(next.year, next.month, releaseBusinessDay);
}
