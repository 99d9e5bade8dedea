// The request keys a runner's formulas read, for `--refresh`: refresh-all then refreshes the
// series of the formulas it was given, not whatever the cache file's saved key list names
// (a cache file, like a workbook, may come from someone else). Each formula's code, currency
// and unit are read from its literal arguments by the functions' signatures and resolved
// against the catalog (Series Info, no data request); a formula that does not resolve adds
// no key (its cell says why when it is evaluated).
import type { Engine } from "../core/engine-api";
import { pcdParameters } from "../workbook/pcd-signatures.generated";
import { parseFormula, type FormulaArgument } from "./formula";

/** Functions that read no series data (INFO reads the catalog, LIMITS and SEARCH no series). */
const NO_DATA = new Set(["INFO", "LIMITS", "SEARCH"]);
const CODE_PARAMETERS = ["code", "from_code", "to_code"];

/** The code/currency/unit triples a formula's arguments name (literals only). */
export function seriesArguments(
  formula: string,
): Array<{ code: string; currency: string | number | null; unit: string | number | null }> {
  const parsed = parseFormula(formula);
  if (parsed instanceof Error || NO_DATA.has(parsed.name)) return [];
  const signature = pcdParameters(parsed.name) ?? [];
  const at = (name: string): FormulaArgument | undefined => {
    const index = signature.findIndex((spec) => spec.name === name);
    return index < 0 ? undefined : parsed.args[index];
  };
  const option = (value: FormulaArgument | undefined): string | number | null =>
    typeof value === "string" || typeof value === "number" ? value : null;
  return CODE_PARAMETERS.flatMap((parameter) => {
    const code = at(parameter);
    if (typeof code !== "string" || code.trim() === "") return [];
    return [{ code: code.trim(), currency: option(at("currency")), unit: option(at("unit")) }];
  });
}

/** The ids of the request keys the formulas read (those that resolve against the catalog). */
export async function formulaKeys(
  engine: Pick<Engine, "resolve">,
  formulas: readonly string[],
): Promise<string[]> {
  const wanted = new Map<
    string,
    { code: string; currency: string | number | null; unit: string | number | null }
  >();
  for (const formula of formulas) {
    for (const series of seriesArguments(formula))
      wanted.set(JSON.stringify([series.code, series.currency, series.unit]), series);
  }
  const resolved = await Promise.allSettled(
    [...wanted.values()].map((series) => engine.resolve(series.code, series.currency, series.unit)),
  );
  return [
    ...new Set(resolved.flatMap((result) => (result.status === "fulfilled" ? [result.value.key] : []))),
  ];
}
