// Real-shape variants (docs/service.md §6) that affect how plain values are written on the wire.
import type { EmulatorOptions } from "./options";

export type WireBoolean = boolean | "True" | "False";

/** JSON booleans, or "True"/"False" strings with --bool-strings. */
export function wireBoolean(value: boolean, options: Pick<EmulatorOptions, "boolStrings">): WireBoolean {
  if (!options.boolStrings) return value;
  return value ? "True" : "False";
}

/** A text field, or the "not applicable" marker when it has no value. */
export function wireText(value: string | undefined, options: Pick<EmulatorOptions, "naMarker">): string {
  return value ?? options.naMarker;
}
