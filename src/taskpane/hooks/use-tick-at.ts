import { useEffect, useState } from "react";

/** After `at`, so that a check of "now < at" made then is past it. */
const AFTER_MS = 1_000;
/** The longest delay a browser's setTimeout keeps (2^31 - 1 ms); a later time ticks early. */
const MAX_TIMER_MS = 2_147_483_647 - AFTER_MS;

/**
 * A count that goes up once when the clock passes `at`, for a load that must run again then:
 * a downtime's end falls between the load's other re-runs (the hourly one), and until the load
 * runs again the pane would still say that nothing can run. A count, not a flag: the load that
 * follows usually drops `at`, and a flag turning back would run the load once more for nothing.
 */
export function useTickAt(at: number | undefined): number {
  const [ticks, setTicks] = useState(0);
  useEffect(() => {
    if (at === undefined) return;
    const delay = Math.min(Math.max(0, at - Date.now()), MAX_TIMER_MS) + AFTER_MS;
    const timer = setTimeout(() => setTicks((count) => count + 1), delay);
    return () => clearTimeout(timer);
  }, [at]);
  return ticks;
}
