// US Central Time (America/Chicago) through the Intl API, so daylight saving time
// (CST UTC-6 / CDT UTC-5, changing on the second Sunday of March and the first Sunday of
// November) comes from the platform's time zone database instead of hand-written rules.

const CENTRAL_ZONE = "America/Chicago";

const formatter = new Intl.DateTimeFormat("en-US", {
  timeZone: CENTRAL_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

export interface WallTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time in US Central Time at an instant. */
export function centralWallTime(instant: Date): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const read = (name: string): number => {
    const value = parts[name];
    if (value === undefined || Number.isNaN(value)) throw new Error(`Intl gave no '${name}' part`);
    return value;
  };
  return {
    year: read("year"),
    month: read("month"),
    day: read("day"),
    hour: read("hour") % 24,
    minute: read("minute"),
    second: read("second"),
  };
}

/** Minutes to add to UTC to get Central wall time at an instant (-360 in CST, -300 in CDT). */
export function centralOffsetMinutes(instant: Date): number {
  const wall = centralWallTime(instant);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((wallAsUtc - wholeSeconds) / 60000);
}

/**
 * The instant at which Central wall time reads the given date and time. Times used by the
 * schedule (06:00, 12:00, 22:00) never fall into the skipped or repeated hour of a DST
 * change (02:00-03:00), so the two-step offset correction is exact for them.
 */
export function centralToInstant(year: number, month: number, day: number, hour: number, minute = 0): Date {
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  let guess = new Date(wallAsUtc - centralOffsetMinutes(new Date(wallAsUtc)) * 60000);
  guess = new Date(wallAsUtc - centralOffsetMinutes(guess) * 60000);
  return guess;
}

/** The last day centralDate worked out, for the minute it was asked. */
let lastDate = { minute: Number.NaN, date: "" };

/**
 * "YYYY-MM-DD" of the Central calendar day of an instant. Central time differs from UTC by
 * whole hours, so a day starts on a whole minute and every instant of a minute has one date:
 * a Series Info answer asks once per series, and Intl's formatting is the costly part.
 */
export function centralDate(instant: Date): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === lastDate.minute) return lastDate.date;
  const wall = centralWallTime(instant);
  const date = `${wall.year}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
  lastDate = { minute, date };
  return date;
}

/** Day of week (0 = Sunday) of a calendar date; independent of any time zone. */
export function weekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
