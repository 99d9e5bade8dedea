// The benchmark pins the emulator's clock and the engine's clock to the same instant, a
// plain working day away from maintenance (15th, 25th) and the release day, so a run gives
// the same catalog, the same months and the same figures whatever the date it runs on.
import type { Clock } from "../src/core/environment";

export const PINNED_START = "2026-11-10T16:00:00Z";

export interface PinnedClock {
  /** For the emulator's `now` option. */
  start: string;
  /** Added to Date.now() by every engine of the run. */
  offsetMs: number;
  clock: Clock;
}

export function pinClock(start: string = PINNED_START, realNow: number = Date.now()): PinnedClock {
  const offsetMs = Date.parse(start) - realNow;
  if (Number.isNaN(offsetMs)) throw new Error(`Cannot pin the clock to '${start}': not an ISO date-time`);
  return { start, offsetMs, clock: { now: () => Date.now() + offsetMs } };
}
