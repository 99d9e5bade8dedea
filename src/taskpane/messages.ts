// Texts the pane shows for failures and numbers. Pure functions, table-tested: a message
// always names its cause and what to do, and never carries a token or password.
import { isPcdError } from "../core/errors";
import type { ProductId } from "../core/model";

/** Any failure as one sentence for a message bar: upper-case start, final stop. */
export function describeError(error: unknown): string {
  if (isPcdError(error)) return asSentence(error.message) || `PCD failed (${error.kind}).`;
  if (error instanceof Error) return asSentence(error.message) || `${error.name}.`;
  return asSentence(String(error)) || "PCD failed for an unknown reason.";
}

/** "boom" -> "Boom.": a text from elsewhere made to read as one of the pane's sentences. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Sign-in failures, phrased for the three cases a person meets most. Each names the cause
 * once, then what to do: the service's own words would only repeat the cause (docs/messages.md).
 */
export function signInErrorMessage(error: unknown, serviceAddress: string, now: number = Date.now()): string {
  if (!isPcdError(error)) return `Sign-in failed: ${describeError(error)}`;
  switch (error.kind) {
    case "auth":
      return "Wrong username or password: the service refused the sign-in. Check both and sign in again.";
    case "network": {
      const reason = error.details.reason ? ` (${error.details.reason})` : "";
      return `The PCD service at ${serviceAddress} could not be reached${reason}. Check the service and token addresses under Advanced, and your network connection.`;
    }
    case "timeout":
      return `The PCD service at ${serviceAddress} did not answer in time. Check the service and token addresses under Advanced, and your network connection.`;
    case "unavailable": {
      // The downtime the error names, as the Status tab and the notice name it.
      const downtime = error.details.downtime;
      return unavailableText(
        error.details.until ?? null,
        now,
        downtime === "release" ? "release" : "maintenance",
        {
          announced: downtime === "announced",
        },
      );
    }
    case "input":
      return describeError(error);
    default:
      return `Sign-in failed: ${describeError(error)}`;
  }
}

/**
 * "The PCD service is in maintenance until …", with or without a known end. Release day says
 * what it is: closed until the new data is published, by 22:00 US Central Time at the latest
 * (the end is a deadline, not a time the data is known to come).
 */
export function unavailableText(
  until: number | null,
  now: number,
  reason: "maintenance" | "release" | null = "maintenance",
  options: { announced?: boolean; throughGateway?: boolean } = {},
): string {
  const available = options.throughGateway
    ? "Cached data stays available, and so do the series your team's gateway keeps."
    : "Cached data stays available.";
  if (reason === "release") {
    const when = until === null ? "" : `: ${formatDateTime(until)}, ${formatDuration(until - now)} from now`;
    return `Release day: the service is closed until the new data is published (by 22:00 US Central Time at the latest${when}). ${available}`;
  }
  const what = options.announced ? "said it is in maintenance" : "is in maintenance";
  if (until === null) return `The PCD service ${what}; try again later. ${available}`;
  return `The PCD service ${what} until ${formatDateTime(until)} (${formatDuration(until - now)} from now). ${available}`;
}

/** "Thu, Dec 3": the calendar day of an instant in US Central Time (the service's calendar). */
function centralDay(epochMs: number): string {
  return new Date(epochMs).toLocaleDateString(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    timeZone: "America/Chicago",
  });
}

/**
 * The next release day as what it is: the day the service closes at 06:00 US Central Time
 * and the new data comes by 22:00 at the latest (its start is not when the data comes).
 */
export function nextReleaseText(releaseStart: number): string {
  return `Next release day: ${centralDay(releaseStart)} (closed from 06:00 US Central Time until the new data is published, by 22:00 at the latest).`;
}

/** The next maintenance window, with its hours in the service's time zone. */
export function nextMaintenanceText(windowStart: number): string {
  return `Next maintenance window: ${centralDay(windowStart)}, 06:00 to 22:00 US Central Time.`;
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

/** A local date and time without seconds, in the user's locale, with its time zone. */
export function formatDateTime(epochMs: number, timeZone?: string): string {
  return new Date(epochMs).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone === undefined ? {} : { timeZone }),
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

/** What the series list found, per product (a search covers every product). */
export type ProductCounts = Readonly<Record<ProductId, number>>;

export interface EmptyListContext {
  /** The search text; "" when browsing the catalog. */
  query: string;
  /** The product tab chosen as a filter; null for all products. */
  product: ProductId | null;
  /** Matches per product for the same search and filters. */
  counts: ProductCounts;
  /** Whether coverage, commodity or forecast filters are on. */
  filtered: boolean;
  labels: Readonly<Record<ProductId, string>>;
}

/**
 * Every empty list says why and what to try, e.g. 'No series match "xyz" in Energy; 22 in
 * Commodities. Choose Commodities or All to see them.'
 */
export function emptyListText(context: EmptyListContext): string {
  const { query, product, counts, filtered, labels } = context;
  const where = product === null ? "any product" : labels[product];
  const elsewhere = (Object.keys(counts) as ProductId[]).filter((id) => id !== product && counts[id] > 0);
  const withFilters = filtered ? " with these filters" : "";
  if (elsewhere.length > 0) {
    const found = elsewhere.map((id) => `${counts[id]} in ${labels[id]}`).join(" and ");
    const subject = query === "" ? `No ${where} series` : `No series match "${query}" in ${where}`;
    const tabs = elsewhere.map((id) => labels[id]).join(" or ");
    return `${subject}${withFilters}; ${found}. Choose ${tabs}, or All, to see them.`;
  }
  if (query === "") {
    return filtered
      ? `No ${product === null ? "" : `${where} `}series match these filters. Clear the filters to see the whole catalog.`
      : `Your subscription has no ${product === null ? "" : `${where} `}series. Sign in with another account, or ask your PCD account manager.`;
  }
  const clear = filtered ? "Clear the filters, or try" : "Try";
  return `No series match "${query}" in ${where}${withFilters}. ${clear} fewer or other words, or search by code, e.g. "68520-8-1".`;
}

/** "38 series for "gas": 30 in Energy, 8 in Commodities.", the list's one-line summary. */
export function listSummaryText(
  shown: number,
  query: string,
  counts: ProductCounts,
  labels: Readonly<Record<ProductId, string>>,
): string {
  const perProduct = (Object.keys(counts) as ProductId[])
    .filter((id) => counts[id] > 0)
    .map((id) => `${counts[id]} in ${labels[id]}`);
  const what = `${shown} series${query === "" ? "" : ` for "${query}"`}`;
  return perProduct.length > 1 ? `${what}: ${perProduct.join(", ")}.` : `${what}.`;
}
