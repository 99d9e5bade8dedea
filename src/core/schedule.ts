// The service's published schedule (docs/service.md §8.3):
// maintenance on the 15th and 25th from 06:00 to 22:00 US Central Time, and on the
// monthly release day downtime from 06:00 until the data is out (deadline 22:00).
// Pure functions of an instant, so the engine, the pane and tests share one answer.
//
// The release day is the Nth business day (Monday to Friday) of the month
// (release-calendar.ts); an unexpected holiday costs nothing but an early "refresh due".
import type { ServiceState } from "./engine-api";
import { centralParts, centralToEpoch } from "./central-time";
import type { Month } from "./model";
import { addMonths, nextReleaseStart, releaseDay, WINDOW_START_HOUR } from "./release-calendar";

export {
  latestReleaseStart,
  nextReleaseStart,
  releaseDay,
  releaseStartOf,
  WINDOW_START_HOUR,
  type CalendarDay,
} from "./release-calendar";

export const WINDOW_END_HOUR = 22;
export const MAINTENANCE_DAYS: readonly number[] = [15, 25];

/** Epoch ms of the first maintenance window start (15th/25th 06:00 Central) strictly after `now`. */
export function nextMaintenanceStart(now: number): number {
  const p = centralParts(now);
  for (let monthDelta = 0; monthDelta <= 1; monthDelta++) {
    const { year, month } = addMonths(p.year, p.month, monthDelta);
    for (const day of MAINTENANCE_DAYS) {
      const start = centralToEpoch(year, month, day, WINDOW_START_HOUR, 0);
      if (start > now) return start;
    }
  }
  // Unreachable: the 15th of next month always lies ahead.
  throw new Error("nextMaintenanceStart: no window found");
}

export interface ServiceStateOptions {
  /**
   * When the caller has seen this month's release come out (e.g. a call succeeded on
   * release day), the release downtime ends then instead of at the 22:00 deadline.
   */
  releaseDoneAt?: number;
}

const MINUTE_MS = 60_000;
const STATE_MEMO_LIMIT = 64;
const stateByMinute = new Map<string, ServiceState>();

/**
 * Whether the service is expected to be up at `now`, and if not why and until when.
 * The engine asks on every cell's path, so the answer is memoised by minute: every window
 * and release boundary falls on a whole minute, so all instants of a minute get the same
 * answer (unless the release was seen out within that minute, which is computed afresh).
 */
export function serviceState(
  now: number,
  releaseBusinessDay: number,
  options: ServiceStateOptions = {},
): ServiceState {
  const minuteStart = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const done = options.releaseDoneAt;
  if (done !== undefined && done >= minuteStart) return computeServiceState(now, releaseBusinessDay, options);
  const key = `${minuteStart}|${releaseBusinessDay}|${done ?? ""}`;
  let state = stateByMinute.get(key);
  if (state === undefined) {
    state = computeServiceState(minuteStart, releaseBusinessDay, options);
    if (stateByMinute.size >= STATE_MEMO_LIMIT) stateByMinute.clear();
    stateByMinute.set(key, state);
  }
  return { ...state };
}

function computeServiceState(
  now: number,
  releaseBusinessDay: number,
  options: ServiceStateOptions,
): ServiceState {
  const p = centralParts(now);
  const nextRelease = nextReleaseStart(now, releaseBusinessDay);
  const nextMaintenance = nextMaintenanceStart(now);
  const inWindowHours = p.hour >= WINDOW_START_HOUR && p.hour < WINDOW_END_HOUR;
  const windowEnd = (): number => centralToEpoch(p.year, p.month, p.day, WINDOW_END_HOUR, 0);

  if (inWindowHours && MAINTENANCE_DAYS.includes(p.day)) {
    return { available: false, reason: "maintenance", until: windowEnd(), nextRelease, nextMaintenance };
  }
  const release = releaseDay(p.year, p.month, releaseBusinessDay);
  if (inWindowHours && release.day === p.day) {
    const start = centralToEpoch(p.year, p.month, p.day, WINDOW_START_HOUR, 0);
    const done = options.releaseDoneAt;
    const released = done !== undefined && done >= start && done <= now;
    if (!released) {
      return { available: false, reason: "release", until: windowEnd(), nextRelease, nextMaintenance };
    }
  }
  return { available: true, reason: null, until: null, nextRelease, nextMaintenance };
}

function formatMonth(year: number, month: number): Month {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}

/**
 * The month the latest final value should be for, by the schedule: the previous month
 * once this month's release deadline (release day 22:00 Central) has passed, else the
 * month before that.
 */
export function expectedLatestFinal(now: number, releaseBusinessDay: number): Month {
  const p = centralParts(now);
  const day = releaseDay(p.year, p.month, releaseBusinessDay);
  const deadline = centralToEpoch(day.year, day.month, day.day, WINDOW_END_HOUR, 0);
  const target = addMonths(p.year, p.month, now >= deadline ? -1 : -2);
  return formatMonth(target.year, target.month);
}
