// Texts the pane shows for failures and numbers. Pure functions, table-tested: a message
// always names its cause and what to do, and never carries a token or password.
import { isPcdError, type PcdError } from "../core/errors";

/** Any failure as one sentence for a message bar. */
export function describeError(error: unknown): string {
  if (isPcdError(error)) return error.message.trim() || `PCD failed (${error.kind}).`;
  if (error instanceof Error) return error.message.trim() || error.name;
  return String(error);
}

/** Sign-in failures, phrased for the three cases a person meets most. */
export function signInErrorMessage(error: unknown, serviceAddress: string, now: number = Date.now()): string {
  if (!isPcdError(error)) return `Sign-in failed: ${describeError(error)}`;
  const said = serverSaid(error);
  switch (error.kind) {
    case "auth":
      return `Wrong username or password: the service refused the sign-in.${said}`;
    case "network": {
      const reason = error.details.reason ? ` (${error.details.reason})` : "";
      return `The PCD service at ${serviceAddress} could not be reached${reason}. Check the service and token addresses under Advanced, and your network connection.`;
    }
    case "timeout":
      return `The PCD service at ${serviceAddress} did not answer in time (${error.message.trim()}). Check the service and token addresses under Advanced, and your network connection.`;
    case "unavailable":
      return `${unavailableText(error.details.until ?? null, now)}${said}`;
    case "input":
      return error.message.trim();
    default:
      return `Sign-in failed: ${describeError(error)}`;
  }
}

function serverSaid(error: PcdError): string {
  const text = error.details.serverMessage?.trim();
  return text ? ` (The service said: "${text}".)` : "";
}

/** "The PCD service is in maintenance until …", with or without a known end. */
export function unavailableText(
  until: number | null,
  now: number,
  reason: "maintenance" | "release" | null = "maintenance",
): string {
  const what = reason === "release" ? "closed for the monthly release" : "in maintenance";
  if (until === null) return `The PCD service is ${what}; try again later. Cached data stays available.`;
  return `The PCD service is ${what} until ${formatDateTime(until)} (${formatDuration(until - now)} from now). Cached data stays available.`;
}

/** "1 h 59 min", "4 min", "less than a minute". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return "less than a minute";
  const totalMinutes = Math.floor(ms / 60_000);
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} d`);
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0 && days === 0) parts.push(`${minutes} min`);
  return parts.join(" ");
}

/** "12.3 KB": the cache size in the units people read. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A local date and time without seconds, in the user's locale. */
export function formatDateTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** "480 of 500 left" and the bar's fraction (0..1), robust to odd service numbers. */
export function allowanceText(remaining: number, total: number): { label: string; fraction: number } {
  const safeTotal = Math.max(0, total);
  const safeRemaining = Math.max(0, Math.min(remaining, safeTotal || remaining));
  const fraction = safeTotal > 0 ? safeRemaining / safeTotal : 0;
  return { label: `${safeRemaining} of ${safeTotal} left`, fraction };
}

/** How long the sign-in token lasts, for the Account tab. */
export function tokenLifetimeText(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return "No token yet: one is requested with the next call.";
  if (expiresAt <= now) return "Token expired: it is renewed with the next call.";
  return `Token valid for ${formatDuration(expiresAt - now)} (renewed automatically).`;
}
