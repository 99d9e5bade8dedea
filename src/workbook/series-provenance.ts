// Where a PCD formula's numbers come from, for Freeze's record and the "PCD sources"
// sheet: the series its arguments name (code, currency, unit), described from the
// catalog, with the release and retrieval time of the data PCD holds for it. The service
// sends no attribution text of its own, so the data owner is named by what the catalog
// does say: the product (as the service spells it) and the dataset (docs/taskpane.md).
import type { Engine } from "../core/engine-api";
import { parsePcdFormula, type PcdArgument } from "./pcd-formula-parse";
import { pcdParameters } from "./pcd-signatures.generated";
import type { SeriesProvenance } from "./frozen-record";

/** What provenance needs from the engine (its public API). */
export type ProvenanceEngine = Pick<Engine, "resolve" | "peek">;

const SERIES_PARAMETERS = ["code", "from_code", "to_code"];

/** The Series column of a formula PCD does not take apart (e.g. =ROUND(PCD.VALUE(…),2)). */
export const UNREAD_FORMULA = "(not one PCD call)";

/** Functions that read no series, described by what they do read. */
const NO_SERIES: Readonly<Record<string, string>> = {
  LIMITS: "Data allowances remaining (Data Limits)",
  SEARCH: "Series catalog search (Series Info)",
};

function literal(argument: PcdArgument | undefined): string | number | null {
  if (!argument) return null;
  if (argument.kind === "text") return argument.value.trim() === "" ? null : argument.value;
  if (argument.kind === "number") return argument.value;
  return null;
}

function unknownSeries(code: string, description: string, retrievedAt: string | null): SeriesProvenance {
  return {
    code,
    currency: null,
    unit: null,
    releaseMonth: null,
    latestMonth: null,
    retrievedAt,
    description,
    owner: "unknown",
  };
}

export async function seriesProvenance(
  engine: ProvenanceEngine,
  formula: string,
  now: number,
): Promise<SeriesProvenance[]> {
  const parsed = parsePcdFormula(formula);
  if (!parsed) {
    // Listed as what it is: its text is no series code (and is written as text, never as a formula).
    return [
      unknownSeries(
        UNREAD_FORMULA,
        `A formula that is more than one PCD call: ${formula} (the series it reads are named in it)`,
        null,
      ),
    ];
  }
  const plain = NO_SERIES[parsed.name];
  if (plain !== undefined) {
    return [
      { ...unknownSeries(`PCD.${parsed.name}`, plain, new Date(now).toISOString()), owner: "PCD service" },
    ];
  }
  const signature = pcdParameters(parsed.name) ?? [];
  const at = (name: string): PcdArgument | undefined => {
    const index = signature.findIndex((spec) => spec.name === name);
    return index < 0 ? undefined : parsed.args[index];
  };
  const currency = literal(at("currency"));
  const unit = literal(at("unit"));
  const series: SeriesProvenance[] = [];
  for (const parameter of SERIES_PARAMETERS) {
    const argument = at(parameter);
    if (!argument || argument.kind === "empty") continue;
    const code = literal(argument);
    if (code === null) {
      series.push(
        unknownSeries(argument.raw, "Named by a reference or an expression (see the formula)", null),
      );
      continue;
    }
    series.push(await describe(engine, String(code), currency, unit));
  }
  return series;
}

async function describe(
  engine: ProvenanceEngine,
  code: string,
  currency: string | number | null,
  unit: string | number | null,
): Promise<SeriesProvenance> {
  try {
    const request = await engine.resolve(code, currency, unit);
    const { info } = request;
    const data = engine.peek(request.key);
    const updated = data?.updatedAt ?? info.updatedAt;
    return {
      code: info.code,
      currency: data?.currency ?? (currency === null ? info.defaultCurrency : String(currency)),
      unit: data?.unit ?? (unit === null ? info.defaultUnit : String(unit)),
      releaseMonth: updated === null ? null : updated.slice(0, 7),
      latestMonth: data?.lastFinal ?? info.lastAvailableFinal,
      retrievedAt: data ? new Date(data.fetchedAt).toISOString() : null,
      description: describeSeries([info.assessment, info.commodity, info.location || info.coverage]),
      owner: `${info.productName} (${info.coverage})`,
    };
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return {
      ...unknownSeries(code, `Not described: ${cause}`, null),
      currency: currency === null ? null : String(currency),
      unit: unit === null ? null : String(unit),
    };
  }
}

/** "Assessment, commodity, location", each part left out when an earlier one already says it. */
export function describeSeries(parts: readonly string[]): string {
  const kept: string[] = [];
  for (const part of parts) {
    const text = part.trim();
    if (text !== "" && !kept.some((earlier) => earlier.toLowerCase().includes(text.toLowerCase())))
      kept.push(text);
  }
  return kept.join(", ");
}
