// Restore: puts frozen cells' formulas back (all of them, or those in the selection). A
// cell whose values no longer match what was frozen was edited since: it is reported
// and left as it is (its record stays, so nothing the person typed is overwritten and
// the formula is not lost either).
//
// The record comes from the workbook file, so it is checked before anything is written
// (restorable.ts): an entry this computer did not seal is listed with its formula and
// cells and restored only once the person confirmed that list; an entry that is not a
// frozen cell, or whose formula or range Freeze could not have written, is reported and
// never applied.
import { FROZEN_SETTING, readFrozenRecord, type FrozenCell } from "./frozen-record";
import { cellAt, overlaps, parseArea, touches } from "./range-address";
import type { RecordSeal } from "./record-seal";
import { formulaProblem, shapeProblem } from "./restorable";
import { SOURCES_SHEET, sourcesSheetRows } from "./sources-sheet";
import type { CellScalar, RangeContent, WorkbookHost } from "./workbook-host";

export interface ChangedCell {
  /** The frozen range (the anchor cell, or a spilled table's range). */
  range: string;
  /** The first cell that differs, e.g. "Sheet1!C5". */
  cell: string;
  frozen: CellScalar;
  now: CellScalar;
}

/** An entry this computer did not seal: what Restore would write, for the person to confirm. */
export interface UnconfirmedCell {
  range: string;
  formula: string;
}

/** An entry Restore does not apply, and why. */
export interface RefusedEntry {
  /** Its range or address as the entry gives it, else "entry N". */
  where: string;
  reason: string;
}

export interface RestoreOutcome {
  restored: string[];
  changed: ChangedCell[];
  /** Entries frozen elsewhere (or edited in the file), not restored until confirmed. */
  unconfirmed: UnconfirmedCell[];
  refused: RefusedEntry[];
  /** Frozen cells left (changed, unconfirmed and refused ones included). */
  remaining: number;
}

export interface RestoreOptions {
  /** Tells which entries this computer froze. */
  seal: RecordSeal;
  /** Entries the person confirmed (as listed in a previous outcome's `unconfirmed`). */
  confirmed?: readonly UnconfirmedCell[];
}

const isConfirmed = (cell: FrozenCell, confirmed: readonly UnconfirmedCell[]): boolean =>
  confirmed.some((item) => item.range === cell.range && item.formula === cell.formula);

export async function restore(
  host: WorkbookHost,
  scope: "all" | "selection",
  options: RestoreOptions,
): Promise<RestoreOutcome> {
  const { record, malformed } = readFrozenRecord(await host.readSetting(FROZEN_SETTING));
  const selection = scope === "selection" ? await host.selectedAddress() : null;
  const inScope = (range: string): boolean => {
    try {
      return selection === null || touches(range, selection);
    } catch {
      return selection === null;
    }
  };
  const refused: RefusedEntry[] = malformed
    .filter((entry) => entry.address === null || inScope(entry.address))
    .map((entry) => ({ where: entry.address ?? `entry ${entry.position}`, reason: entry.reason }));
  const restored: FrozenCell[] = [];
  const changed: ChangedCell[] = [];
  const unconfirmed: UnconfirmedCell[] = [];
  const chosen = record.cells.filter((cell) => inScope(cell.range));
  const sheets = new Map<string, boolean>();
  for (const cell of chosen) {
    const problem = await entryProblem(cell, chosen, host, sheets);
    if (problem !== null) {
      refused.push({ where: cell.range, reason: problem });
      continue;
    }
    const sealed = await options.seal.verify(cell);
    const formula = formulaProblem(cell, sealed);
    if (formula !== null) {
      refused.push({ where: cell.range, reason: formula });
      continue;
    }
    if (!sealed && !isConfirmed(cell, options.confirmed ?? [])) {
      unconfirmed.push({ range: cell.range, formula: cell.formula });
      continue;
    }
    const difference = firstDifference(cell, await host.readRange(cell.range));
    if (difference) {
      changed.push(difference);
      continue;
    }
    await host.restoreFormula(cell.range, cell.formula);
    restored.push(cell);
  }
  const gone = new Set(restored);
  const remaining = record.cells.filter((cell) => !gone.has(cell));
  if (restored.length > 0) {
    const updated = { version: 1 as const, cells: remaining };
    await host.writeSetting(FROZEN_SETTING, updated);
    await host.writeSheet(SOURCES_SHEET, sourcesSheetRows(updated));
  }
  return {
    restored: restored.map((cell) => cell.range),
    changed,
    unconfirmed,
    refused,
    remaining: remaining.length,
  };
}

/** Why an entry cannot be restored where it says (shape, sheet, overlap), or null. */
async function entryProblem(
  cell: FrozenCell,
  chosen: readonly FrozenCell[],
  host: WorkbookHost,
  sheets: Map<string, boolean>,
): Promise<string | null> {
  const shape = shapeProblem(cell);
  if (shape !== null) return shape;
  const { sheet } = parseArea(cell.range);
  if (!sheets.has(sheet)) sheets.set(sheet, await host.hasSheet(sheet));
  if (!sheets.get(sheet)) return `the workbook has no sheet "${sheet}"`;
  const other = chosen.find(
    (item) => item !== cell && shapeProblem(item) === null && overlaps(item.range, cell.range),
  );
  return other === undefined ? null : `its range overlaps the frozen range ${other.range}`;
}

/** The first cell whose content is not what was frozen (a formula typed there counts). */
export function firstDifference(cell: FrozenCell, now: RangeContent): ChangedCell | null {
  for (let r = 0; r < cell.values.length; r += 1) {
    const row = cell.values[r] ?? [];
    for (let c = 0; c < row.length; c += 1) {
      const frozen = row[c] ?? "";
      const value = now.values[r]?.[c] ?? "";
      const formula = now.formulas[r]?.[c] ?? "";
      // A text cell reads back its text as its "formula" (Excel drops the text prefix).
      const typedFormula = formula.startsWith("=") && formula !== value;
      if (!sameValue(frozen, value) || typedFormula) {
        return {
          range: cell.range,
          cell: cellAt(cell.range, r, c),
          frozen,
          now: typedFormula ? formula : value,
        };
      }
    }
  }
  return null;
}

/** Equal as Excel keeps them: numbers compared as numbers ("12" typed back is 12). */
function sameValue(frozen: CellScalar, now: CellScalar): boolean {
  if (typeof frozen === "number" && typeof now === "string" && now.trim() !== "")
    return frozen === Number(now);
  if (typeof frozen === "string" && typeof now === "number" && frozen.trim() !== "")
    return Number(frozen) === now;
  return frozen === now;
}
