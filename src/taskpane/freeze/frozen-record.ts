// The provenance Freeze keeps in the workbook's document settings (saved in the file, so
// it travels with a shared copy): per frozen cell, the formula it held, what it showed,
// and each series it read with the release and the time the data was retrieved. Restore
// reads it back; the "PCD sources" sheet is written from it.
import * as v from "valibot";

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
});

const FrozenRecordSchema = v.object({
  version: v.literal(1),
  cells: v.array(FrozenCellSchema),
});

export type SeriesProvenance = v.InferOutput<typeof SeriesProvenanceSchema>;
export type FrozenCell = v.InferOutput<typeof FrozenCellSchema>;
export type FrozenRecord = v.InferOutput<typeof FrozenRecordSchema>;

export const EMPTY_RECORD: FrozenRecord = { version: 1, cells: [] };

/** The stored record; an absent one is empty, an unreadable one an error (never silently dropped). */
export function parseFrozenRecord(stored: unknown): FrozenRecord {
  if (stored === undefined || stored === null) return EMPTY_RECORD;
  const text: unknown = typeof stored === "string" ? JSON.parse(stored) : stored;
  const parsed = v.safeParse(FrozenRecordSchema, text);
  if (!parsed.success) {
    throw new Error(
      `The workbook's record of frozen cells (${FROZEN_SETTING}) cannot be read: ${parsed.issues[0]?.message ?? "unknown shape"}.`,
    );
  }
  return parsed.output;
}

/** The record with these cells added (a cell frozen again replaces its earlier entry). */
export function withCells(record: FrozenRecord, cells: readonly FrozenCell[]): FrozenRecord {
  const replaced = new Set(cells.map((cell) => cell.address));
  return { version: 1, cells: [...record.cells.filter((cell) => !replaced.has(cell.address)), ...cells] };
}
