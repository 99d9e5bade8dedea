// The `dataset` argument of PCD.LIMITS: a coverage name as the service reports it (a
// country, sector or region). Names are opaque strings; matching ignores case and spacing.
import { argumentError, describeValue, isOmitted } from "./argument-error";

/** null = every dataset. */
export function parseDataset(input: unknown): string | null {
  if (isOmitted(input)) return null;
  if (typeof input === "string") return input.trim();
  throw argumentError(
    "dataset",
    `The dataset arrived as ${describeValue(input)}: give a dataset name as text, e.g. "Germany" or "Polymers".`,
  );
}

export function sameDatasetName(a: string, b: string): boolean {
  return normaliseDatasetName(a) === normaliseDatasetName(b);
}

function normaliseDatasetName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}
