// A team gateway tells when it read a catalog from the service (the pcd-catalog-read-at
// header), by its own clock. Clocks differ: a time a little ahead of this machine's is taken as
// now, and a time is taken as after a moment (the monthly release's start) only when it is
// past it by at least as much as the clocks may differ. The release's downtime begins at its start and
// its data comes out hours later, so no copy read in those first minutes can show it.

/** How far a team gateway's clock may run ahead of this machine's and its times still count. */
export const GATEWAY_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The earliest moment, on this machine's clock, that a copy the gateway read at `readAt` may be as of. */
export function earliestReadAt(readAt: number): number {
  return readAt - GATEWAY_CLOCK_SKEW_MS;
}
