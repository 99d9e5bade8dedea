// Where Insert puts several formulas, and what it says it did. A PCD.VALUES table fills as
// many rows as its series has months in the chosen span, so each table's size is read from
// the engine (the cached series, else the same request the cell makes next, which the cell
// is then served from) before anything is written: tables stacked below each other start
// one empty row past the previous table's last row. Side by side needs only the columns.
import type { Engine } from "../core/engine-api";
import { LATEST_ONLY, WHOLE_SERIES, type SeriesNeed } from "../core/series-need";
import { infoFieldNames } from "../core/info-fields";
import type { SeriesInfo } from "../core/model";
import type { InsertResult } from "./excel-bridge";
import { takesCurrencyAndUnit } from "./series-filters";
import {
  buildFormulas,
  placeFormulas,
  type FormulaChoices,
  type PlacedFormula,
  type ResultSize,
  type StackDirection,
} from "./insert-formulas";
import { valuesTableSize } from "./values-table-size";

/** The engine calls sizing needs. */
export type SizingEngine = Pick<Engine, "resolve" | "peek" | "getSeries">;

function need(choices: FormulaChoices): SeriesNeed {
  if (choices.forecast === 2) return LATEST_ONLY;
  if (choices.startMonth === "" && choices.endMonth === "") return WHOLE_SERIES;
  return { from: choices.startMonth === "" ? null : choices.startMonth, to: choices.endMonth || null };
}

async function tableSize(
  engine: SizingEngine,
  info: SeriesInfo,
  choices: FormulaChoices,
): Promise<ResultSize> {
  const priced = takesCurrencyAndUnit(info);
  const request = await engine.resolve(
    info.code,
    priced && choices.currency !== "" ? choices.currency : null,
    priced && choices.unit !== "" ? choices.unit : null,
  );
  const data = engine.peek(request.key) ?? (await engine.getSeries(request, need(choices)));
  return valuesTableSize(data, choices);
}

/** The formulas and where each goes (offsets from the selected cell). Throws when a table cannot be sized. */
export async function planInsert(
  engine: SizingEngine,
  series: readonly SeriesInfo[],
  choices: FormulaChoices,
  stack: StackDirection,
): Promise<PlacedFormula[]> {
  const formulas = buildFormulas(series, choices);
  // Every field of PCD.INFO is a field/value table: a row per field the record has.
  if (choices.kind === "info" && choices.field === "") {
    return placeFormulas(
      formulas,
      series.map((info) => ({ rows: infoFieldNames(info).length, columns: 2 })),
      stack,
    );
  }
  if (choices.kind !== "values") return placeFormulas(formulas, [], stack);
  const sizes: ResultSize[] = [];
  for (const info of series) {
    try {
      sizes.push(await tableSize(engine, info, choices));
    } catch (error) {
      // One table has nothing to collide with: its cell says itself why it shows no table.
      if (series.length === 1) return placeFormulas(formulas, [], stack);
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(
        `the size of ${info.code}'s table is not known (${cause}). Nothing was written: insert it on its own, or fix the cause first.`,
        { cause: error },
      );
    }
  }
  return placeFormulas(formulas, sizes, stack);
}

/** The kinds of formula whose result is a table: PCD.VALUES, and PCD.INFO of every field. */
export type TableChoices = Pick<FormulaChoices, "kind" | "field">;

export function makesTables(choices: TableChoices): boolean {
  return choices.kind === "values" || (choices.kind === "info" && choices.field === "");
}

/**
 * The insert bar's heading: what Insert writes for these series ("Insert for 3 series (a
 * table each, one empty row apart)"). Values go one row each; tables go where the plan
 * puts them, so the heading says how they are stacked.
 */
export function insertHeading(
  codes: readonly string[],
  choices: TableChoices,
  stack: StackDirection,
): string {
  if (codes.length === 1) return `Insert for ${codes[0]}`;
  const layout = !makesTables(choices)
    ? "one row each"
    : stack === "beside"
      ? "a table each, side by side"
      : "a table each, one empty row apart";
  return `Insert for ${codes.length} series (${layout})`;
}

/** "Inserted 3 tables: Sheet1!E1:G251, Sheet1!E253:G400, Sheet1!E402:G500." */
export function insertedText(choices: TableChoices, written: InsertResult): string {
  if (makesTables(choices) && written.rows > 1)
    return `Inserted ${written.rows} tables: ${written.ranges.join(", ")}.`;
  return `Inserted ${written.rows} formula${written.rows === 1 ? "" : "s"} into ${written.address}.`;
}
