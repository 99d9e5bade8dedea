// Ratios of measured figures to their bounds and to the naive baseline, with the
// convention that 0 measured against a bound of 0 is a perfect 1.00.

/** measured / reference; null when there is nothing to compare against. */
export function ratio(measured: number | null, reference: number | null): number | null {
  if (measured === null || reference === null) return null;
  if (reference === 0) return measured === 0 ? 1 : null;
  return measured / reference;
}

/** "1.00", "0.05", "n/a" (and "> 0 vs 0" when a zero bound was exceeded). */
export function formatRatio(measured: number | null, reference: number | null): string {
  const value = ratio(measured, reference);
  if (value !== null) return value.toFixed(2);
  if (measured !== null && reference === 0 && measured > 0) return `${measured} vs 0`;
  return "n/a";
}
