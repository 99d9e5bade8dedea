// The operations the emulator counts, rate-limits and can inject faults into.

export const OPERATIONS = [
  "access_token",
  "series_info",
  "series_values",
  "series_hist",
  "data_limits",
] as const;
export type Operation = (typeof OPERATIONS)[number];
