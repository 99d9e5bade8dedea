// The `field` argument of PCD.INFO: a Series Info field name (docs/service.md §2.1) in any case, with
// spaces or hyphens instead of underscores; extra fields the service sends are accepted too.
import { SPEC_INFO_FIELDS } from "../../core/info-fields";
import { argumentError, describeValue, isOmitted, listWithin, shortened } from "./argument-error";

/** null = every field. Returns the normalised name (lower case, underscores). */
export function parseFieldName(input: unknown): string | null {
  if (isOmitted(input)) return null;
  if (typeof input !== "string") {
    throw argumentError(
      "field",
      `The field arrived as ${describeValue(input)}: give a field name as text, e.g. "assessment".`,
      SPEC_INFO_FIELDS,
    );
  }
  return normaliseFieldName(input);
}

/**
 * Names seen so far, normalised. findField normalises every field of the record for each
 * INFO cell and each catalog change: thousands of cells share a few dozen names.
 */
const normalised = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 1000;

export function normaliseFieldName(name: string): string {
  const known = normalised.get(name);
  if (known !== undefined) return known;
  const result = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
    .replace(/^remark(\d)$/, "remark_$1");
  // Typed names are unbounded; the record's own names are few. Forget rather than grow.
  if (normalised.size >= MAX_REMEMBERED_NAMES) normalised.clear();
  normalised.set(name, result);
  return result;
}

/** The field as named in the record, or an input error listing the fields there are. */
export function findField(wanted: string, available: readonly string[]): string {
  const field = available.find((name) => normaliseFieldName(name) === wanted);
  if (field !== undefined) return field;
  const prefix = `The field "${shortened(wanted)}" is not a Series Info field; fields: `;
  throw argumentError("field", `${prefix}${listWithin(available, 250 - prefix.length)}.`, available);
}
