// What the pane says during an outage, from the engine's reachability: one plain
// sentence with the time it started (in UTC, the time the service and its notes use).
import type { ServiceReachability } from "../core/engine-api";

/** "14:02 UTC" (with the date in front when it is not today). */
export function utcTime(epochMs: number, now: number): string {
  const iso = new Date(epochMs).toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

/** The outage sentence, or null while the service answers. */
export function unreachableText(reachability: ServiceReachability | undefined, now: number): string | null {
  if (!reachability || reachability.unreachableSince === null) return null;
  return (
    `Can't reach the PCD service since ${utcTime(reachability.unreachableSince, now)}; ` +
    "cached values are kept; retrying (cells try again by themselves, and with every calculation or refresh)."
  );
}
