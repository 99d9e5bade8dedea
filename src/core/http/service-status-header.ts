// A team gateway answers a member's call that the service refused with the refusal in its own
// words, and says in this header which status the service answered. A 503 is then the
// service's (its maintenance or release downtime, in a window of the calendar, even when it
// gave no words), not the gateway's own failure or its front end's (http-failure.ts).

/** The HTTP status the service answered the gateway's call with, as decimal digits. */
export const SERVICE_STATUS_HEADER = "pcd-service-status";

/** The header's status; null when absent or not a status. */
export function serviceStatus(value: string | null): number | null {
  if (value === null || !/^[1-5]\d\d$/.test(value)) return null;
  return Number(value);
}
