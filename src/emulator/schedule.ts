// The service's calendar (docs/service.md §8.3 and docs/decisions.md D24): monthly releases on the
// 3rd business day at the release hour, release-day downtime from 06:00 until the
// release, maintenance on the 15th and 25th from 06:00 to 22:00, all US Central Time.
import { centralToInstant, centralWallTime, weekday } from "./central-time";
import { monthIndex } from "./months";

export const DOWNTIME_START_HOUR = 6;
export const DOWNTIME_END_HOUR = 22;
export const MAINTENANCE_DAYS: readonly number[] = [15, 25];

/** Day of month of the 3rd business day (Monday to Friday) of a month. */
export function releaseDay(year: number, month: number): number {
  let businessDays = 0;
  for (let day = 1; ; day += 1) {
    const dow = weekday(year, month, day);
    if (dow !== 0 && dow !== 6) businessDays += 1;
    if (businessDays === 3) return day;
  }
}

export function releaseInstant(year: number, month: number, releaseHour: number): Date {
  return centralToInstant(year, month, releaseDay(year, month), releaseHour);
}

/**
 * Month index of the latest concluded month by the calendar alone: month M's release
 * publishes M-1, so before this month's release the latest is M-2.
 */
export function scheduledLatestMonth(now: Date, releaseHour: number): number {
  const wall = centralWallTime(now);
  const current = monthIndex(wall.year, wall.month);
  return now.getTime() >= releaseInstant(wall.year, wall.month, releaseHour).getTime()
    ? current - 1
    : current - 2;
}

/** Release dates by published month: a Series Info answer looks some up for every series. */
const releaseDates = new Map<number, string>();

/** "YYYY-MM-DD" of the release that publishes a month (the release in the following month). */
export function releaseDateOf(publishedMonth: number): string {
  let date = releaseDates.get(publishedMonth);
  if (date === undefined) {
    const next = publishedMonth + 1;
    const year = 2007 + Math.floor(next / 12);
    const month = next - (year - 2007) * 12 + 1;
    date = `${year}-${String(month).padStart(2, "0")}-${String(releaseDay(year, month)).padStart(2, "0")}`;
    releaseDates.set(publishedMonth, date);
  }
  return date;
}

export interface Downtime {
  kind: "maintenance" | "release";
  until: Date;
  message: string;
}

/** The downtime window an instant falls into, if any. */
export function downtimeAt(now: Date, releaseHour: number): Downtime | undefined {
  const wall = centralWallTime(now);
  if (wall.hour < DOWNTIME_START_HOUR || wall.hour >= DOWNTIME_END_HOUR) return undefined;
  const day = `${wall.year}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
  if (MAINTENANCE_DAYS.includes(wall.day)) {
    return {
      kind: "maintenance",
      until: centralToInstant(wall.year, wall.month, wall.day, DOWNTIME_END_HOUR),
      message: `Service unavailable for maintenance until ${day} ${DOWNTIME_END_HOUR}:00 US Central Time`,
    };
  }
  if (wall.day === releaseDay(wall.year, wall.month)) {
    const release = releaseInstant(wall.year, wall.month, releaseHour);
    if (now.getTime() < release.getTime()) {
      return {
        kind: "release",
        until: release,
        message: `Service unavailable until the monthly release (at the latest ${DOWNTIME_END_HOUR}:00 US Central Time)`,
      };
    }
  }
  return undefined;
}
