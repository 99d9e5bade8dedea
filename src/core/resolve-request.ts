// Turns a cell's currency and unit arguments into a validated SeriesRequest. Every
// rejection says which argument is wrong and what the series offers instead: users
// must never get a silent fallback to the defaults (docs/decisions.md D3).
import type { SeriesRequest } from "./engine-api";
import { PcdError } from "./errors";
import type { DataType, SeriesInfo, ServiceEnvironment } from "./model";
import { CURRENCIES, findReference, UNITS, type ReferenceEntry } from "./reference";
import { makeRequestKey } from "./request-key";
import { truncate } from "./truncate";

export type OptionInput = string | number | null | undefined;

export type OptionArgument = "currency" | "unit";

const ARGUMENT_LABEL: Record<OptionArgument, string> = { currency: "Currency", unit: "Unit" };

/** How the user would call the non-utility industry economics series in a message. */
const DATA_TYPE_LABEL: Partial<Record<DataType, string>> = {
  location_factor: "location factors",
  cost_index: "cost indexes",
};

/** Longest echo of the user's text, "…" included: Excel shows 255 characters, the cause must stay visible. */
const MAX_SHOWN_INPUT = 41;

function shownInput(input: string | number): string {
  const text = typeof input === "number" ? String(input) : input.trim();
  return truncate(text, MAX_SHOWN_INPUT);
}

/**
 * Currency and unit names as compared: trimmed, single-spaced, lower case. Every cell with
 * a currency or unit compares a few names on every recalculation, and the names are a
 * small vocabulary (the catalogs' currencies and units): each is normalised once.
 */
const normalisedNames = new Map<string, string>();
const MAX_NORMALISED_NAMES = 1_000;

function normaliseName(text: string): string {
  let normalised = normalisedNames.get(text);
  if (normalised === undefined) {
    normalised = text.trim().replace(/\s+/g, " ").toLowerCase();
    // Names from a cell's arguments could be anything: the memory stays bounded.
    if (normalisedNames.size >= MAX_NORMALISED_NAMES) normalisedNames.clear();
    normalisedNames.set(text, normalised);
  }
  return normalised;
}

function sameName(a: string, b: string): boolean {
  return a === b || normaliseName(a) === normaliseName(b);
}

function isBlank(input: OptionInput): input is null | undefined | "" {
  return input === null || input === undefined || (typeof input === "string" && input.trim() === "");
}

/** "Unit 't' is not offered for 1-2-3: did you mean mt? Available: mt, kg" (no suggestion: a stop). */
export function notOfferedMessage(
  argument: OptionArgument,
  shown: string,
  code: string,
  offered: readonly string[],
  suggestion: string | null,
): string {
  const list = offered.length > 0 ? offered.join(", ") : "none";
  const hint = suggestion === null ? "." : `: did you mean ${suggestion}?`;
  return `${ARGUMENT_LABEL[argument]} '${shown}' is not offered for ${code}${hint} Available: ${list}`;
}

function resolveOption(
  argument: OptionArgument,
  table: readonly ReferenceEntry[],
  input: OptionInput,
  info: SeriesInfo,
): number | null {
  if (isBlank(input)) return null;
  const available = argument === "currency" ? info.availableCurrencies : info.availableUnits;
  const fallback = argument === "currency" ? info.defaultCurrency : info.defaultUnit;
  const offered = available.length > 0 ? available : fallback ? [fallback] : [];
  const entry = findReference(table, input);
  const isOffered =
    entry !== undefined &&
    (offered.some((name) => sameName(name, entry.shortName)) ||
      (fallback !== null && sameName(fallback, entry.shortName)));
  if (!entry || !isOffered) {
    const shown = shownInput(input);
    // Only a name the tables do not know is a typo; a known one is just not offered here.
    // The engine looks for the name meant on its way out (option-suggestion.ts): the edit
    // distance it takes loads on the first such mistake, not when Excel starts.
    const unknownName =
      entry === undefined && typeof input === "string" ? { typed: input, shown, code: info.code } : undefined;
    throw new PcdError("input", notOfferedMessage(argument, shown, info.code, offered, null), {
      argument,
      allowed: offered,
      ...(unknownName ? { unknownName } : {}),
    });
  }
  return entry.id;
}

function rejectOptionOnNonUtility(argument: OptionArgument, info: SeriesInfo): never {
  const label = DATA_TYPE_LABEL[info.dataType] ?? info.dataType.replace(/_/g, " ");
  throw new PcdError(
    "input",
    `${ARGUMENT_LABEL[argument]} does not apply to ${label} (${info.code}): leave it empty`,
    { argument, allowed: [] },
  );
}

/**
 * Validates currency and unit (short name in any case and spacing, or numeric ID as a
 * number or digit string) against the series and builds its request key.
 */
export function resolveSeriesRequest(
  environment: ServiceEnvironment,
  info: SeriesInfo,
  currency: OptionInput,
  unit: OptionInput,
): SeriesRequest {
  if (info.product === "industry_economics" && info.dataType !== "utilities") {
    // The service ignores c and u for these types (docs/service.md §4.6): a value would silently mislead.
    if (!isBlank(currency)) rejectOptionOnNonUtility("currency", info);
    if (!isBlank(unit)) rejectOptionOnNonUtility("unit", info);
  }
  const currencyId = resolveOption("currency", CURRENCIES, currency, info);
  const unitId = resolveOption("unit", UNITS, unit, info);
  const requestKey = makeRequestKey(environment, info, currencyId, unitId);
  return { key: requestKey.id, requestKey, info };
}
