// What a location factor is relative to. The catalog has no field for it: the base is
// written in the series' texts ("Location factor, Germany vs United States", "Plant
// construction cost in Belgium relative to Germany = 1.00", "Belgium relative to
// Germany"). Two factors divide into a meaningful ratio only on the same base, so
// PCD.RELOCATE reads both bases and compares them (docs/formulas.md, PCD.RELOCATE).
import { findCountry } from "./countries";
import type { SeriesInfo } from "./model";

export interface LocationFactorBase {
  /** The location the factor is for (the catalog's location, else the one its text names). */
  location: string;
  /** The location it is relative to (the one whose factor is 1.00). */
  base: string;
}

/** "<location> vs <base>", "<location> relative to <base>" (also "versus", "compared to"). */
const RELATIVE =
  /(?:^|[,:;]\s*|\bin\s+)((?:(?!\bin\b)[^,:;])*?)\s*\b(?:vs\.?|versus|relative to|compared (?:to|with))\s+(.+)$/i;
/** "<base> = 1.00" on its own (e.g. "US Gulf Coast = 1.00"). */
const BASE_EQUALS_ONE = /(?:^|[,:;(]\s*)([^,:;(=]+?)\s*=\s*1(?:\.0+)?\b/;
/** What may follow the base: "= 1.00", a bracket, a comma, a full stop at the end. */
const BASE_END = /\s*(?:=\s*1(?:\.0+)?\b.*|[,;(].*|\.\s*)$/;

function tidy(text: string): string {
  return text
    .replace(BASE_END, "")
    .replace(/^the\s+/i, "")
    .trim()
    .replace(/\s+/g, " ");
}

/** A country's name as the catalog writes it ("USA" and "United States" are one base). */
function canonical(place: string): string {
  return findCountry(place)?.name ?? place;
}

function readText(text: string): { location: string; base: string } | null {
  const relative = RELATIVE.exec(text.trim());
  if (relative) {
    const base = tidy(relative[2] ?? "");
    if (base !== "") return { location: tidy(relative[1] ?? ""), base };
  }
  const equalsOne = BASE_EQUALS_ONE.exec(text);
  if (equalsOne) {
    const base = tidy(equalsOne[1] ?? "");
    if (base !== "") return { location: "", base };
  }
  return null;
}

/**
 * The factor's base, read from its assessment and specification. null when neither says
 * it, or when they name different bases (which one is right cannot be told).
 */
export function locationFactorBase(
  info: Pick<SeriesInfo, "assessment" | "specification" | "location">,
): LocationFactorBase | null {
  const readings = [info.assessment, info.specification]
    .filter((text): text is string => typeof text === "string" && text.trim() !== "")
    .map(readText)
    .filter((reading): reading is { location: string; base: string } => reading !== null);
  const first = readings[0];
  if (first === undefined) return null;
  const base = canonical(first.base);
  if (readings.some((reading) => !sameBase(canonical(reading.base), base))) return null;
  const named = readings.find((reading) => reading.location !== "")?.location ?? "";
  const location = canonical(info.location.trim() !== "" ? info.location.trim() : named);
  return { location, base };
}

/** Whether two bases (or locations) name the same place: any case and spacing. */
export function sameBase(a: string, b: string): boolean {
  const key = (text: string): string => canonical(text).trim().replace(/\s+/g, " ").toLowerCase();
  return key(a) === key(b);
}
