// US Central Time (America/Chicago) without a date library. The service's maintenance
// windows and release deadline are wall-clock times in Central Time, so the offset
// (CST -6 h / CDT -5 h) must follow daylight saving time. Intl carries the IANA rules in
// every host the add-in runs in (Excel's runtimes, browsers, Node with full ICU).

export const CENTRAL_TIME_ZONE = "America/Chicago";

export interface CentralParts {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
  /** 0..23 */
  hour: number;
  minute: number;
  /** 0 = Sunday .. 6 = Saturday (as Date.getDay). */
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

let formatter: Intl.DateTimeFormat | undefined;

function centralFormatter(): Intl.DateTimeFormat {
  formatter ??= new Intl.DateTimeFormat("en-US", {
    timeZone: CENTRAL_TIME_ZONE,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    weekday: "short",
  });
  return formatter;
}

/**
 * Readings are memoised by minute: the reading has minute precision (and Central Time's
 * offset changes on whole hours), so every instant of a minute reads the same. The engine
 * asks for the service state on every cell's path; Intl runs at most once per minute
 * asked about (a few distinct minutes per call: now, and the window and release starts).
 */
const MINUTE_MS = 60_000;
const MEMO_LIMIT = 256;
const partsByMinute = new Map<number, CentralParts>();
const epochByWallTime = new Map<string, number>();

function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  // A small bound: the working set is a handful of minutes and wall times at a time.
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

/** The Central Time wall-clock reading of an instant. */
export function centralParts(epochMs: number): CentralParts {
  const minute = Math.floor(epochMs / MINUTE_MS);
  const known = partsByMinute.get(minute);
  // A copy: callers get a reading of their own.
  if (known !== undefined) return { ...known };
  return { ...remember(partsByMinute, minute, readCentralParts(minute * MINUTE_MS)) };
}

function readCentralParts(epochMs: number): CentralParts {
  const parts: Record<string, string> = {};
  for (const part of centralFormatter().formatToParts(new Date(epochMs))) parts[part.type] = part.value;
  const weekday = WEEKDAYS[parts.weekday ?? ""];
  if (weekday === undefined) throw new Error(`Unexpected weekday from Intl: ${String(parts.weekday)}`);
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    // Some engines print midnight as "24" even with h23.
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday,
  };
}

/** Offset of Central Time from UTC at an instant, in ms (e.g. -6 h in winter). */
function centralOffsetMs(epochMs: number): number {
  const p = centralParts(epochMs);
  const wallAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  // Seconds and milliseconds are not part of the wall reading: compare at minute precision.
  return wallAsUtc - Math.floor(epochMs / 60_000) * 60_000;
}

/**
 * The instant at which Central Time reads the given wall-clock time. The offset is
 * looked up at a first guess and checked once more, which settles it on both sides of
 * a DST change (a wall time inside the spring-forward gap resolves to the later offset).
 */
export function centralToEpoch(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
): number {
  const key = `${year}-${month}-${day} ${hour}:${minute}`;
  const known = epochByWallTime.get(key);
  if (known !== undefined) return known;
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  const firstGuess = wallAsUtc - centralOffsetMs(wallAsUtc);
  const secondGuess = wallAsUtc - centralOffsetMs(firstGuess);
  return remember(epochByWallTime, key, secondGuess);
}

/** Day of the week of a calendar date (0 = Sunday), independent of any time zone. */
export function calendarWeekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
