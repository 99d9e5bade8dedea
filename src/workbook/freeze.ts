// Freeze: replaces PCD formulas (spilled tables included) with the values they show, so a
// workbook shared with someone without PCD keeps its numbers instead of #NAME?. It
// freezes nothing when a PCD cell shows an error or #BUSY! (a value that is not there
// cannot be frozen; #BUSY! passes in a moment) and names those cells. Provenance is kept
// twice: in the document settings (frozen-record.ts), which Restore reads, and on the
// visible "PCD sources" sheet (sources-sheet.ts), which a recipient reads. A write that fails
// part way (a protected sheet) leaves both listing exactly the cells that were frozen.
import { firstError } from "./cell-errors";
import {
  FROZEN_SETTING,
  parseFrozenRecord,
  withCells,
  type FrozenCell,
  type FrozenRecord,
  type SeriesProvenance,
} from "./frozen-record";
import { isPcdFormula } from "./pcd-formula";
import { byPosition } from "./range-address";
import type { RecordSeal } from "./record-seal";
import { SOURCES_SHEET, sourcesSheetRows } from "./sources-sheet";
import type { FormulaCell, FreezeScope, WorkbookHost } from "./workbook-host";

export interface RefusedCell {
  address: string;
  /** What it shows, e.g. "#BUSY!" or "#N/A". */
  shows: string;
}

export type FreezeOutcome =
  | { status: "frozen"; cells: FrozenCell[]; sourcesSheet: string }
  | { status: "refused"; refused: RefusedCell[] }
  | { status: "nothing"; scope: FreezeScope };

export interface FreezeOptions {
  host: WorkbookHost;
  /** Seals each entry as this computer's (Restore puts sealed entries back without a question). */
  seal: RecordSeal;
  scope: FreezeScope;
  /** The series a formula reads, with where the data came from (the engine's cache and catalog). */
  provenance: (formula: string) => Promise<SeriesProvenance[]>;
  now: () => number;
}

export async function freeze(options: FreezeOptions): Promise<FreezeOutcome> {
  const { host, scope } = options;
  const cells = (await host.formulaCells(scope))
    .filter((cell) => isPcdFormula(cell.formula))
    .sort((a, b) => byPosition(a.address, b.address));
  if (cells.length === 0) return { status: "nothing", scope };
  const refused = cells.flatMap((cell): RefusedCell[] => {
    const shows = firstError(cell.values);
    return shows === null ? [] : [{ address: cell.address, shows }];
  });
  if (refused.length > 0) return { status: "refused", refused };
  // Read before anything is written: a record that cannot be read stops the freeze here.
  const record = parseFrozenRecord(await host.readSetting(FROZEN_SETTING));
  const frozenAt = new Date(options.now()).toISOString();
  const frozen: FrozenCell[] = [];
  for (const cell of cells) {
    const entry = await frozenCell(cell, frozenAt, options.provenance);
    frozen.push({ ...entry, seal: await options.seal.seal(entry) });
  }
  const updated = withCells(record, frozen);
  // The record and the sources sheet first: if either cannot be written (a read-only file, a
  // protected workbook structure), no formula has been replaced yet and the record is put back.
  await host.writeSetting(FROZEN_SETTING, updated);
  let sourcesSheet: string;
  try {
    sourcesSheet = await host.writeSheet(SOURCES_SHEET, sourcesSheetRows(updated));
  } catch (error) {
    await host.writeSetting(FROZEN_SETTING, record);
    throw new Error(
      `nothing was frozen: the sheet "${SOURCES_SHEET}" could not be written (${reasonOf(error)}).`,
    );
  }
  const written: FrozenCell[] = [];
  for (const cell of frozen) {
    try {
      await host.writeValues(cell.range, cell.values, cell.numberFormats);
    } catch (error) {
      await keepOnly(host, record, written);
      throw new Error(stoppedAt(cell, written, frozen.length, error));
    }
    written.push(cell);
  }
  return { status: "frozen", cells: frozen, sourcesSheet };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * After a write failed part way: the record and the sources sheet list only the cells that
 * were frozen, so Restore never takes a formula still in its cell for an edit. Best effort:
 * the failure that stopped the freeze is the one reported.
 */
async function keepOnly(
  host: WorkbookHost,
  record: FrozenRecord,
  written: readonly FrozenCell[],
): Promise<void> {
  const kept = withCells(record, written);
  try {
    await host.writeSetting(FROZEN_SETTING, kept);
    await host.writeSheet(SOURCES_SHEET, sourcesSheetRows(kept));
  } catch {
    // The record still lists the cells not frozen; Restore recognises their formulas (restore.ts).
  }
}

function stoppedAt(cell: FrozenCell, written: readonly FrozenCell[], total: number, error: unknown): string {
  const done =
    written.length === 0
      ? "no cell was frozen"
      : `${written.length} of ${total} were frozen (${describeAddresses(written.map((item) => item.range))}) and can be restored`;
  const left = total - written.length;
  return `it stopped at ${cell.range} (${reasonOf(error)}): ${done}; ${left === 1 ? "that cell keeps its formula" : `that cell and ${left - 1} more keep their formulas`}.`;
}

/** "A1, B2, C3 and 4 more". */
function describeAddresses(addresses: readonly string[], shown = 5): string {
  const listed = addresses.slice(0, shown);
  const more = addresses.length - listed.length;
  return more > 0 ? `${listed.join(", ")} and ${more} more` : listed.join(", ");
}

async function frozenCell(
  cell: FormulaCell,
  frozenAt: string,
  provenance: FreezeOptions["provenance"],
): Promise<FrozenCell> {
  return {
    address: cell.address,
    formula: cell.formula,
    range: cell.range,
    values: cell.values.map((row) => [...row]),
    numberFormats: cell.numberFormats.map((row) => [...row]),
    series: await provenance(cell.formula),
    frozenAt,
  };
}

/** "B2 (#BUSY!), C4 (#N/A) and 3 more": the refused cells without a wall of text. */
export function describeRefused(refused: readonly RefusedCell[], shown = 5): string {
  return describeAddresses(
    refused.map((cell) => `${cell.address} (${cell.shows})`),
    shown,
  );
}
