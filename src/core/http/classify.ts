// What every call needs at hand about failures, whether or not the readers of answers have
// loaded: the operations' names, the local time, whether a message announces a downtime, and
// which failures are worth another attempt. Turning a failed exchange into a PcdError is
// fetch-rejection.ts (no answer) and http-failure.ts (a non-2xx status), loaded with the other
// readers of answers before a call leaves (answer-readers.ts).
import type { PcdError } from "../errors";
import type { Operation } from "../model";

export const OPERATION_LABELS: Record<Operation, string> = {
  access_token: "Access Token",
  series_info: "Series Info",
  series_values: "Series Values",
  series_hist: "Series Values History",
  data_limits: "Data Limits",
};

export function formatLocalTime(epochMs: number): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(epochMs),
  );
}

/** The service's own words name a maintenance or the release downtime (docs/service.md §8.3). */
const DOWNTIME_WORDS = /maintenance|monthly release|downtime/i;

/** Whether the service's message announces a downtime (rather than a fault of unknown cause). */
export function announcesDowntime(serverMessage: string | null | undefined): boolean {
  return typeof serverMessage === "string" && DOWNTIME_WORDS.test(serverMessage);
}

/** Whether a failure is worth another attempt (429, 5xx except 501, network, timeout). */
export function isRetryable(error: PcdError): boolean {
  switch (error.kind) {
    case "rate":
    case "network":
    case "timeout":
      return true;
    case "server":
    case "unavailable":
      return error.details.status !== 501;
    default:
      return false;
  }
}
