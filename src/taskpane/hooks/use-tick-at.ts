import { useEffect, useRef, useState } from "react";

/** After `at`, so that a check of "now < at" made then is past it. */
const AFTER_MS = 1_000;
/** The longest delay a browser's setTimeout keeps (2^31 - 1 ms); a later time ticks early. */
const MAX_TIMER_MS = 2_147_483_647 - AFTER_MS;
/** The longest wait between ticks while the load keeps giving back the same `at`. */
const LONGEST_AGAIN_MS = 60_000;

/**
 * How long until the next tick: just after `at` while it is still ahead (the first tick, or one
 * that came early because `at` was beyond a timer's reach); once past it, while `at` stays in
 * place (the load that the tick ran has not answered yet, or its clock had not passed `at`: the
 * engine's clock need not be the page's), 2 s later, then twice as long each time up to a minute,
 * so the pane neither waits for the hourly re-run nor loads again every second.
 */
export function tickDelayMs(at: number, now: number, ticksAtThisTime: number): number {
  if (ticksAtThisTime === 0 || now < at) return Math.min(Math.max(0, at - now), MAX_TIMER_MS) + AFTER_MS;
  return Math.min(AFTER_MS * 2 ** ticksAtThisTime, LONGEST_AGAIN_MS);
}

/**
 * A count that goes up when the clock passes `at`, for a load that must run again then: a
 * downtime's end falls between the load's other re-runs (the hourly one), and until the load
 * runs again the pane would still say that nothing can run. A count, not a flag: the load that
 * follows usually drops `at`, and a flag turning back would run the load once more for nothing.
 */
export function useTickAt(at: number | undefined): number {
  const [ticks, setTicks] = useState(0);
  const ticked = useRef<{ at: number | undefined; times: number }>({ at: undefined, times: 0 });
  useEffect(() => {
    if (ticked.current.at !== at) ticked.current = { at, times: 0 };
    if (at === undefined) return;
    const delay = tickDelayMs(at, Date.now(), ticked.current.times);
    const timer = setTimeout(() => {
      ticked.current.times += 1;
      setTicks((count) => count + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [at, ticks]);
  return ticks;
}
