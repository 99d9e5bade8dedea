// The provenance Freeze keeps in the workbook's document settings (saved in the file, so
// it travels with a shared copy): per frozen cell, the formula it held, what it showed,
// and each series it read with the release and the time the data was retrieved. Restore
// reads it back; the "PCD sources" sheet is written from it.
import * as v from "valibot";
import { overlaps } from "./range-address";

/** The document setting's name (Excel keeps it in the workbook file). */
export const FROZEN_SETTING = "pcd.frozen";

const ScalarSchema = v.union([v.string(), v.number(), v.boolean()]);

const SeriesProvenanceSchema = v.object({
  code: v.string(),
  /** As the service applied them (or as the formula asked, when the data was not cached). */
  currency: v.nullable(v.string()),
  unit: v.nullable(v.string()),
  /** The release the data came from, "YYYY-MM" (the month of the series' last update). */
  releaseMonth: v.nullable(v.string()),
  /** The latest final month the data held. */
  latestMonth: v.nullable(v.string()),
  /** ISO time the data was retrieved from the service. */
  retrievedAt: v.nullable(v.string()),
  description: v.string(),
  /** Who the data belongs to, as the catalog names it (see docs/taskpane.md, Freeze). */
  owner: v.string(),
});

const FrozenCellSchema = v.object({
  address: v.string(),
  formula: v.string(),
  range: v.string(),
  values: v.array(v.array(ScalarSchema)),
  numberFormats: v.array(v.array(v.string())),
  series: v.array(SeriesProvenanceSchema),
  frozenAt: v.string(),
  /** This computer's seal of the entry (record-seal.ts); absent or other: frozen elsewhere or edited. */
  seal: v.optional(v.string()),
});

/** The record's frame; each cell is read on its own, so one bad entry does not hide the rest. */
const StoredRecordSchema = v.object({
  version: v.literal(1),
  cells: v.array(v.unknown()),
});

export type SeriesProvenance = v.InferOutput<typeof SeriesProvenanceSchema>;
export type FrozenCell = v.InferOutput<typeof FrozenCellSchema>;
export interface FrozenRecord {
  version: 1;
  cells: FrozenCell[];
}

/** An entry of the stored record that is not a frozen cell: reported by Restore, never applied. */
export interface MalformedEntry {
  /** Its position in the stored list (1-based, as a person counts). */
  position: number;
  /** Where it says it was, when it says so. */
  address: string | null;
  reason: string;
}

export const EMPTY_RECORD: FrozenRecord = { version: 1, cells: [] };

/**
 * The stored record with its unreadable entries apart; an absent record is empty, one whose
 * frame cannot be read an error (never silently dropped).
 */
export function readFrozenRecord(stored: unknown): { record: FrozenRecord; malformed: MalformedEntry[] } {
  if (stored === undefined || stored === null) return { record: EMPTY_RECORD, malformed: [] };
  let text: unknown = stored;
  if (typeof stored === "string") {
    try {
      text = JSON.parse(stored);
    } catch {
      throw new Error(
        `The workbook's record of frozen cells (${FROZEN_SETTING}) cannot be read: it is not JSON.`,
      );
    }
  }
  const frame = v.safeParse(StoredRecordSchema, text);
  if (!frame.success) {
    throw new Error(
      `The workbook's record of frozen cells (${FROZEN_SETTING}) cannot be read: ${frame.issues[0]?.message ?? "unknown shape"}.`,
    );
  }
  const cells: FrozenCell[] = [];
  const malformed: MalformedEntry[] = [];
  frame.output.cells.forEach((entry, index) => {
    const parsed = v.safeParse(FrozenCellSchema, entry);
    if (parsed.success) {
      cells.push(parsed.output);
      return;
    }
    const address = (entry as { address?: unknown } | null)?.address;
    const issue = parsed.issues[0];
    const path = issue?.path?.map((item) => String(item.key)).join(".");
    malformed.push({
      position: index + 1,
      address: typeof address === "string" ? address : null,
      reason: `${path ? `${path}: ` : ""}${issue?.message ?? "not a frozen cell"}`,
    });
  });
  return { record: { version: 1, cells }, malformed };
}

/** The stored record's readable cells (readFrozenRecord without its report). */
export function parseFrozenRecord(stored: unknown): FrozenRecord {
  return readFrozenRecord(stored).record;
}

/**
 * The record with these cells added. A new entry replaces every earlier one whose range it
 * shares a cell with: the cell frozen again, and an older block the person had cleared before
 * a new table spilled over it. Two overlapping entries could never both be restored, and the
 * newer freeze is what the cells show. An earlier entry whose range is not an address is kept
 * for Restore to report.
 */
export function withCells(record: FrozenRecord, cells: readonly FrozenCell[]): FrozenRecord {
  const replaced = (earlier: FrozenCell): boolean =>
    cells.some((cell) => {
      try {
        return cell.address === earlier.address || overlaps(cell.range, earlier.range);
      } catch {
        return false;
      }
    });
  return { version: 1, cells: [...record.cells.filter((cell) => !replaced(cell)), ...cells] };
}
