// Restore: puts frozen cells' formulas back (all of them, or those in the selection). A
// block whose cells no longer show what was frozen was edited since: every edited cell is
// reported and the block is left as it is (its record stays, so nothing the person typed
// is overwritten and the formula is not lost either), until the person confirms that
// exactly those cells may be overwritten ("Restore anyway"). Numbers are compared as a
// person reads them: to the precision the cell shows, else to 1e-9 relative, so a value
// typed back as it was displayed counts as unchanged.
//
// The record comes from the workbook file, so it is checked before anything is written
// (restorable.ts): an entry this computer did not seal is listed with its formula and
// cells and restored only once the person confirmed that list; an entry that is not a
// frozen cell, or whose formula or range Freeze could not have written, is reported and
// never applied.
import { FROZEN_SETTING, readFrozenRecord, type FrozenCell } from "./frozen-record";
import { areasOverlap, cellAt, parseArea, selectionAreas, touches, type RangeArea } from "./range-address";
import type { RecordSeal } from "./record-seal";
import { formulaProblem, shapeProblem } from "./restorable";
import { SOURCES_SHEET, sourcesSheetRows } from "./sources-sheet";
import type { CellScalar, RangeContent, WorkbookHost } from "./workbook-host";

/** A cell of a frozen block that no longer shows what was frozen. */
export interface EditedCell {
  /** e.g. "Sheet1!C5" */
  cell: string;
  frozen: CellScalar;
  now: CellScalar;
}

/** A frozen block with edited cells: not restored unless the person agrees to overwrite them. */
export interface ChangedBlock {
  /** The frozen range (the anchor cell, or a spilled table's range). */
  range: string;
  /** Every edited cell of the block, row by row. */
  cells: EditedCell[];
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
  /**
   * Set when the entry is sound but names a sheet the workbook does not have (renamed or
   * deleted since the freeze): its record stays, and the sheet's name back restores it.
   */
  missingSheet?: string;
}

export interface RestoreOutcome {
  restored: string[];
  changed: ChangedBlock[];
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
  /**
   * Edited blocks the person agreed to overwrite (as listed in a previous outcome's
   * `changed`). A block is overwritten only while its edits are exactly the ones agreed to;
   * the record's own checks (restorable.ts, the seal) still apply.
   */
  overwrite?: readonly ChangedBlock[];
}

const sameEdits = (a: readonly EditedCell[], b: readonly EditedCell[]): boolean =>
  a.length === b.length &&
  a.every((edit, index) => {
    const other = b[index];
    return (
      other !== undefined &&
      other.cell === edit.cell &&
      other.now === edit.now &&
      other.frozen === edit.frozen
    );
  });

const overwriteAgreed = (block: ChangedBlock, agreed: readonly ChangedBlock[]): boolean =>
  agreed.some((item) => item.range === block.range && sameEdits(item.cells, block.cells));

const isConfirmed = (cell: FrozenCell, confirmed: readonly UnconfirmedCell[]): boolean =>
  confirmed.some((item) => item.range === cell.range && item.formula === cell.formula);

export async function restore(
  host: WorkbookHost,
  scope: "all" | "selection",
  options: RestoreOptions,
): Promise<RestoreOutcome> {
  const { record, malformed } = readFrozenRecord(await host.readSetting(FROZEN_SETTING));
  const selection = scope === "selection" ? selectionAreas(await host.selectedAddress()) : null;
  // An entry whose range is not an address is in scope of Restore all only, where it is reported.
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
  const changed: ChangedBlock[] = [];
  const unconfirmed: UnconfirmedCell[] = [];
  const chosen = record.cells.filter((cell) => inScope(cell.range));
  // Each well-shaped entry's area, read once, in the record's order: the overlap check
  // compares every pair, and a shared file's record can hold thousands of entries.
  const placed = new Map<FrozenCell, RangeArea>();
  for (const cell of chosen) if (shapeProblem(cell) === null) placed.set(cell, parseArea(cell.range));
  const sheets = new Map<string, boolean>();
  for (const cell of chosen) {
    const problem = await entryProblem(cell, placed, host, sheets);
    if (problem !== null) {
      refused.push({ where: cell.range, ...problem });
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
    const now = await host.readRange(cell.range);
    // Its formula is already back (a Restore or Freeze stopped part way): nothing to write.
    if (now.formulas[0]?.[0] === cell.formula) {
      restored.push(cell);
      continue;
    }
    const edited = editedCells(cell, now);
    if (
      edited.length > 0 &&
      !overwriteAgreed({ range: cell.range, cells: edited }, options.overwrite ?? [])
    ) {
      changed.push({ range: cell.range, cells: edited });
      continue;
    }
    try {
      await host.restoreFormula(cell.range, cell.formula);
    } catch (error) {
      // The formulas already back leave the record before the failure is reported (best
      // effort: should that fail too, the next Restore recognises them by their formulas).
      await forget(host, record.cells, restored).catch(() => undefined);
      throw new Error(stoppedAt(cell, restored, error));
    }
    restored.push(cell);
  }
  const remaining = restored.length > 0 ? await forget(host, record.cells, restored) : record.cells;
  return {
    restored: restored.map((cell) => cell.range),
    changed,
    unconfirmed,
    refused,
    remaining: remaining.length,
  };
}

/** Writes the record (and the sources sheet) without the restored entries; returns those left. */
async function forget(
  host: WorkbookHost,
  cells: readonly FrozenCell[],
  restored: readonly FrozenCell[],
): Promise<FrozenCell[]> {
  const gone = new Set(restored);
  const remaining = cells.filter((cell) => !gone.has(cell));
  if (restored.length > 0) {
    const updated = { version: 1 as const, cells: remaining };
    await host.writeSetting(FROZEN_SETTING, updated);
    await host.writeSheet(SOURCES_SHEET, sourcesSheetRows(updated));
  }
  return remaining;
}

function stoppedAt(cell: FrozenCell, restored: readonly FrozenCell[], error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const done =
    restored.length === 0
      ? "no formula was restored"
      : `${restored.length === 1 ? "1 formula was" : `${restored.length} formulas were`} restored (${restored.map((item) => item.range).join(", ")})`;
  return `it stopped at ${cell.range} (${reason}): ${done}; ${cell.range} and the frozen ranges not reached yet keep their values.`;
}

/** Why an entry cannot be restored where it says (shape, overlap, sheet), or null. */
async function entryProblem(
  cell: FrozenCell,
  placed: ReadonlyMap<FrozenCell, RangeArea>,
  host: WorkbookHost,
  sheets: Map<string, boolean>,
): Promise<Omit<RefusedEntry, "where"> | null> {
  const area = placed.get(cell);
  if (area === undefined)
    return { reason: shapeProblem(cell) ?? `its range ${cell.range} is not an address` };
  for (const [other, otherArea] of placed) {
    if (other !== cell && areasOverlap(otherArea, area))
      return { reason: `its range overlaps the frozen range ${other.range}` };
  }
  const { sheet } = area;
  if (!sheets.has(sheet)) sheets.set(sheet, await host.hasSheet(sheet));
  if (!sheets.get(sheet)) return { reason: `the workbook has no sheet "${sheet}"`, missingSheet: sheet };
  return null;
}

/** Every cell whose content is not what was frozen (a formula typed there counts), row by row. */
export function editedCells(cell: FrozenCell, now: RangeContent): EditedCell[] {
  const edited: EditedCell[] = [];
  for (let r = 0; r < cell.values.length; r += 1) {
    const row = cell.values[r] ?? [];
    for (let c = 0; c < row.length; c += 1) {
      const frozen = row[c] ?? "";
      const value = now.values[r]?.[c] ?? "";
      const formula = now.formulas[r]?.[c] ?? "";
      // A text cell reads back its text as its "formula" (Excel drops the text prefix).
      const typedFormula = formula.startsWith("=") && formula !== value;
      const format = cell.numberFormats[r]?.[c];
      if (!sameValue(frozen, value, now.texts?.[r]?.[c], format) || typedFormula) {
        edited.push({ cell: cellAt(cell.range, r, c), frozen, now: typedFormula ? formula : value });
      }
    }
  }
  return edited;
}

/** Decimals a cell shows ("1,234.57" → 2, "12.5%" → 3), or null when its text is not a plain number. */
export function shownDecimals(text: string): number | null {
  const match = /^\s*[+-]?[\d,]*\d(?:\.(\d+))?\s*(%?)\s*$/.exec(text);
  if (!match) return null;
  return (match[1]?.length ?? 0) + (match[2] === "%" ? 2 : 0);
}

/** Decimals a number format fixes ("#,##0.00" → 2, "0.0%" → 3, "0" → 0), or null (General, dates). */
export function formatDecimals(format: string): number | null {
  const plain =
    format
      .replace(/"[^"]*"/g, "")
      .split(";")[0]
      ?.trim() ?? "";
  const match = /^[#,]*0+(?:\.(0+))?(%?)$/.exec(plain);
  if (!match) return null;
  return (match[1]?.length ?? 0) + (match[2] === "%" ? 2 : 0);
}

/**
 * The fewest significant digits a General cell shows of a number that does not fit: Excel's
 * standard column holds eight characters ("28.56847"). A shorter text than this ("28.57")
 * is a different number typed, not the frozen one as it was shown.
 */
const GENERAL_SHOWN_DIGITS = 6;

const significantDigits = (text: string): number => text.replace(/[^\d]/g, "").replace(/^0+/, "").length;

/**
 * Two numbers a person reads as the same: to the decimals the cell's number format fixes;
 * in a General cell, to the decimals its text shows when that shows a full General width;
 * else to 1e-9 relative.
 */
export function sameNumber(frozen: number, now: number, shown?: string, format = "General"): boolean {
  if (frozen === now) return true;
  const shownText = shown ?? "";
  const decimals =
    formatDecimals(format) ??
    (significantDigits(shownText) >= GENERAL_SHOWN_DIGITS ? shownDecimals(shownText) : null);
  if (decimals !== null && decimals <= 15) {
    const scale = 10 ** decimals;
    return Math.round(frozen * scale) === Math.round(now * scale);
  }
  return Math.abs(frozen - now) <= 1e-9 * Math.max(Math.abs(frozen), Math.abs(now));
}

/** Equal as Excel keeps them: numbers compared as numbers ("12" typed back is 12). */
function sameValue(frozen: CellScalar, now: CellScalar, shown?: string, format?: string): boolean {
  const asNumber = (value: CellScalar): number | null => {
    if (typeof value === "number") return value;
    if (typeof value === "string" && value.trim() !== "") {
      const number = Number(value);
      return Number.isFinite(number) ? number : null;
    }
    return null;
  };
  if (typeof frozen === "number" || typeof now === "number") {
    const a = asNumber(frozen);
    const b = asNumber(now);
    return a !== null && b !== null && sameNumber(a, b, shown, format);
  }
  return frozen === now;
}
