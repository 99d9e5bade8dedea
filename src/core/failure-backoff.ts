// How long a read that keeps failing is left alone before it is tried again, when nobody
// asked for it in person (the pane's views, the preview, a cell in passing): the wait
// doubles with each failure in a row, so an outage of hours costs a handful of calls, not
// one every few minutes. The user's own actions (Refresh all, Reload) are never held back.

/** The longest wait between two tries of a read that keeps failing. */
export const MAX_FAILURE_BACKOFF_MS = 60 * 60_000;

/** The wait after `failures` failures in a row (1 or more): firstMs, then twice as long each time, at most the cap. */
export function failureBackoff(firstMs: number, failures: number, capMs = MAX_FAILURE_BACKOFF_MS): number {
  if (failures <= 0) return 0;
  return Math.min(capMs, firstMs * 2 ** Math.min(failures - 1, 30));
}
