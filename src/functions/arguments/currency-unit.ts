// The `currency` and `unit` arguments: a short name (any case) or a numeric ID. Whether the
// series offers it is the engine's decision (Engine.resolve lists the offered ones); here
// only the shape is checked, so a typo in the type of value is caught before any lookup.
import { optionKindOf } from "../../core/option-kind";
import { CURRENCIES, UNITS, type ReferenceEntry } from "../../core/reference";
import { argumentError, describeValue, isOmitted, shortened } from "./argument-error";

export type OptionArgument = "currency" | "unit";

/** null = the series default. */
export function parseCurrencyOrUnit(input: unknown, argument: OptionArgument): string | number | null {
  if (isOmitted(input)) return null;
  const table = argument === "currency" ? CURRENCIES : UNITS;
  if (typeof input === "number") {
    if (table.some((entry) => entry.id === input)) return input;
    throw argumentError(
      argument,
      `The ${argument} ${input} is not an ID: ${allowedText(table)}.`,
      names(table),
    );
  }
  if (typeof input === "string") {
    const text = input.trim();
    // A unit in the currency slot (or the reverse) would be refused as "not offered": say where it goes.
    const kind = optionKindOf(text);
    if (kind !== null && kind !== argument) {
      throw argumentError(
        argument,
        `The ${argument} "${shortened(text)}" looks like a ${kind}: it goes in the ${kind} argument.`,
      );
    }
    return text;
  }
  throw argumentError(
    argument,
    `The ${argument} arrived as ${describeValue(input)}: ${allowedText(table)}.`,
    names(table),
  );
}

function names(table: readonly ReferenceEntry[]): string[] {
  return table.map((entry) => entry.shortName);
}

function allowedText(table: readonly ReferenceEntry[]): string {
  const list = table.map((entry) => `${entry.shortName} (${entry.id})`).join(", ");
  return `use a short name or ID the series offers, e.g. ${list}`;
}
