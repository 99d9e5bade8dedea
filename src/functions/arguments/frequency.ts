// The frequency of PCD.VALUES (9th argument): monthly rows, or averages of complete
// quarters or years. Accepts the letters and the words, in any case.
import { argumentError, describeValue, isOmitted } from "./argument-error";

export type Frequency = "M" | "Q" | "Y";

const NAMES: ReadonlyMap<string, Frequency> = new Map([
  ["m", "M"],
  ["monthly", "M"],
  ["month", "M"],
  ["q", "Q"],
  ["quarterly", "Q"],
  ["quarter", "Q"],
  ["y", "Y"],
  ["yearly", "Y"],
  ["year", "Y"],
  ["annual", "Y"],
  ["a", "Y"],
]);

export function parseFrequency(input: unknown): Frequency {
  if (isOmitted(input)) return "M";
  const frequency = typeof input === "string" ? NAMES.get(input.trim().toLowerCase()) : undefined;
  if (frequency) return frequency;
  throw argumentError(
    "frequency",
    `The frequency must be "M" (monthly, the default), "Q" (quarterly) or "Y" (annual); got ${describeValue(input)}.`,
    ["M", "Q", "Y"],
  );
}
