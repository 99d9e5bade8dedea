// Retry-After (RFC 9110 10.2.3): either delay-seconds or an HTTP date.

/** Milliseconds to wait from `now`, or null when the header is absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (text === "") return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names a weekday or month in letters; bare numbers are handled above.
  if (!/[A-Za-z]/.test(text)) return null;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}
