// Restore: puts frozen cells' formulas back (all of them, or those in the selection). A
// cell whose values no longer match what was frozen was edited since: it is reported
// and left as it is (its record stays, so nothing the person typed is overwritten and
// the formula is not lost either).
import { FROZEN_SETTING, parseFrozenRecord, type FrozenCell } from "./frozen-record";
import { cellAt, touches } from "./range-address";
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

export interface RestoreOutcome {
  restored: string[];
  changed: ChangedCell[];
  /** Frozen cells left (changed ones included). */
  remaining: number;
}

export async function restore(host: WorkbookHost, scope: "all" | "selection"): Promise<RestoreOutcome> {
  const record = parseFrozenRecord(await host.readSetting(FROZEN_SETTING));
  const selection = scope === "selection" ? await host.selectedAddress() : null;
  const chosen = record.cells.filter((cell) => selection === null || touches(cell.range, selection));
  const restored: FrozenCell[] = [];
  const changed: ChangedCell[] = [];
  for (const cell of chosen) {
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
  return { restored: restored.map((cell) => cell.range), changed, remaining: remaining.length };
}

/** The first cell whose content is not what was frozen (a formula typed there counts). */
export function firstDifference(cell: FrozenCell, now: RangeContent): ChangedCell | null {
  for (let r = 0; r < cell.values.length; r += 1) {
    const row = cell.values[r] ?? [];
    for (let c = 0; c < row.length; c += 1) {
      const frozen = row[c] ?? "";
      const value = now.values[r]?.[c] ?? "";
      const formula = now.formulas[r]?.[c] ?? "";
      if (!sameValue(frozen, value) || formula.startsWith("=")) {
        return {
          range: cell.range,
          cell: cellAt(cell.range, r, c),
          frozen,
          now: formula.startsWith("=") ? formula : value,
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
