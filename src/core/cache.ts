// The series cache: merged monthly data per request key, mirrored in memory (cells read
// it synchronously through peek) and persisted under "pcd:data:<key>". The persistent
// cache is shared by every workbook of the machine (one IndexedDB per origin), so at
// start-up only the entries of this workbook's keys are read; any other stored entry is
// read when a cell or a refresh first asks for its key (ensure), one key at a time. An entry is only
// ever replaced after a successful answer, merged with what it held, so a failing call
// can never leave a cell with less than it had. Each entry records which months it covers
// and as of which catalog state (coverage.ts), so cells are served only complete months.
import * as v from "valibot";
import type { CoveredRange } from "./coverage";
import type { KeyValueStorage, Logger } from "./environment";
import type { Month } from "./model";
import { PointColumns } from "./point-columns";
import { WriteBatch } from "./storage/write-batch";
import {
  packPoints,
  readPointColumns,
  readPointTexts,
  StoredPointColumnsSchema,
  StoredPointsSchema,
  StoredPointTextsSchema,
  unpackPoints,
} from "./stored-points";

export const DATA_KEY_PREFIX = "pcd:data:";

export interface CacheEntry {
  key: string;
  /** Oldest first, one point per month (held column-wise: point-columns.ts). */
  finals: PointColumns;
  forecasts: PointColumns;
  /** Currency / unit short names the service applied. */
  currency: string | null;
  unit: string | null;
  /** updated_at of the last answer. */
  updatedAt: string | null;
  lastFinal: Month | null;
  /** Epoch ms of the last successful fetch. */
  fetchedAt: number;
  /** The Series Info updated_at of the last answer merged (the catalog revision marker). */
  catalogUpdatedAt: string | null;
  /** Months held completely (sorted, disjoint); finals outside them are not kept. */
  covered: CoveredRange[];
  /** Series Info updated_at (or `UNDATED_CATALOG`) when Series Values last answered: window and forecasts as of then. */
  valuesAsOf: string | null;
  /** Series Info updated_at when History last answered. */
  historyAsOf: string | null;
  /**
   * Series Info updated_at of a history revision (series_hist_changed) seen while the cached
   * History predated it and was not bought again (another cell read the series, or the call
   * failed). The flag is gone at the next release; this keeps History due until it is bought.
   */
  historyRevisedAt?: string | null;
}

const PointSchema = v.object({ month: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/)), value: v.number() });

const CacheEntrySchema = v.object({
  key: v.string(),
  finals: v.array(PointSchema),
  forecasts: v.array(PointSchema),
  currency: v.nullable(v.string()),
  unit: v.nullable(v.string()),
  updatedAt: v.nullable(v.string()),
  lastFinal: v.nullable(v.string()),
  fetchedAt: v.number(),
  catalogUpdatedAt: v.nullable(v.string()),
  covered: v.optional(
    v.array(
      v.object({
        from: v.nullable(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/))),
        to: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/)),
      }),
    ),
  ),
  valuesAsOf: v.optional(v.nullable(v.string())),
  historyAsOf: v.optional(v.nullable(v.string())),
  historyRevisedAt: v.optional(v.nullable(v.string())),
  /** Written by versions before coverage: History merged, the Values call that followed failed. */
  pendingValues: v.optional(v.boolean()),
});

/** A stored entry as read, its points as columns (whatever form they were stored in). */
type StoredEntry = Omit<v.InferOutput<typeof CacheEntrySchema>, "finals" | "forecasts"> & {
  finals: PointColumns;
  forecasts: PointColumns;
};

/** Entries written by earlier versions: the points as flat arrays, marked by `format`. */
export const PACKED_FORMAT = 2;

/** Entries written by earlier versions: the points as JSON texts (runs of months, values). */
export const TEXT_FORMAT = 3;

/** What put writes (stored-points.ts): the months as a text of runs, the values as a Float64Array. */
export const COLUMNS_FORMAT = 4;

const PackedEntrySchema = v.object({
  ...CacheEntrySchema.entries,
  format: v.literal(PACKED_FORMAT),
  finals: StoredPointsSchema,
  forecasts: StoredPointsSchema,
});

const TextEntrySchema = v.object({
  ...CacheEntrySchema.entries,
  format: v.literal(TEXT_FORMAT),
  finals: StoredPointTextsSchema,
  forecasts: StoredPointTextsSchema,
});

const ColumnsEntrySchema = v.object({
  ...CacheEntrySchema.entries,
  format: v.literal(COLUMNS_FORMAT),
  finals: StoredPointColumnsSchema,
  forecasts: StoredPointColumnsSchema,
});

type ColumnsEntry = v.InferOutput<typeof ColumnsEntrySchema>;

/** The stored form of an entry (the form every entry is written in). */
export function toStored(entry: CacheEntry): ColumnsEntry {
  return {
    ...entry,
    format: COLUMNS_FORMAT,
    finals: packPoints(entry.finals),
    forecasts: packPoints(entry.forecasts),
  };
}

/** Reads any stored form: columns, or the texts, flat arrays or one object per month of entries written before. */
function parseStored(stored: unknown): StoredEntry | undefined {
  const format =
    typeof stored === "object" && stored !== null ? (stored as { format?: unknown }).format : null;
  if (format === COLUMNS_FORMAT) {
    const parsed = v.safeParse(ColumnsEntrySchema, stored);
    if (!parsed.success) return undefined;
    const { format: _format, finals, forecasts, ...rest } = parsed.output;
    return withColumns(rest, readPointColumns(finals), readPointColumns(forecasts));
  }
  if (format === TEXT_FORMAT) {
    const parsed = v.safeParse(TextEntrySchema, stored);
    if (!parsed.success) return undefined;
    const { format: _format, finals, forecasts, ...rest } = parsed.output;
    const finalPoints = readPointTexts(finals);
    const forecastPoints = readPointTexts(forecasts);
    if (finalPoints === undefined || forecastPoints === undefined) return undefined;
    return withColumns(rest, unpackPoints(finalPoints), unpackPoints(forecastPoints));
  }
  if (format === PACKED_FORMAT) {
    const packed = v.safeParse(PackedEntrySchema, stored);
    if (!packed.success) return undefined;
    const { format: _format, finals, forecasts, ...rest } = packed.output;
    return withColumns(rest, unpackPoints(finals), unpackPoints(forecasts));
  }
  const parsed = v.safeParse(CacheEntrySchema, stored);
  if (!parsed.success) return undefined;
  const { finals, forecasts, ...rest } = parsed.output;
  return { ...rest, finals: PointColumns.fromPoints(finals), forecasts: PointColumns.fromPoints(forecasts) };
}

/** The entry with its columns; undefined when either could not be made (months out of order). */
function withColumns(
  rest: Omit<StoredEntry, "finals" | "forecasts">,
  finals: PointColumns | undefined,
  forecasts: PointColumns | undefined,
): StoredEntry | undefined {
  return finals === undefined || forecasts === undefined ? undefined : { ...rest, finals, forecasts };
}

/**
 * Entries written before coverage was recorded always began with a History load, so they
 * cover every month to their last final; one marked pendingValues lacks the latest months.
 */
export function fromStored(stored: StoredEntry): CacheEntry {
  const { pendingValues, covered, valuesAsOf, historyAsOf, ...entry } = stored;
  if (covered !== undefined) {
    return { ...entry, covered, valuesAsOf: valuesAsOf ?? null, historyAsOf: historyAsOf ?? null };
  }
  return {
    ...entry,
    covered: entry.lastFinal === null ? [] : [{ from: null, to: entry.lastFinal }],
    valuesAsOf: pendingValues === true ? null : entry.catalogUpdatedAt,
    historyAsOf: entry.catalogUpdatedAt,
  };
}

export class DataCache {
  private readonly entries = new Map<string, CacheEntry>();
  /** Keys with an entry in storage that is not read into memory yet. */
  private readonly unread = new Set<string>();
  /** Reads in progress, per key (cells of one key wait for one read). */
  private readonly reading = new Map<string, Promise<void>>();
  /** Entries stored together reach storage in one transaction (write-batch.ts). */
  private readonly writes: WriteBatch;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
  ) {
    this.writes = new WriteBatch(storage, (storageKeys, error) => {
      const cause = error instanceof Error ? error.message : String(error);
      for (const storageKey of storageKeys) {
        this.log?.("warn", `Could not persist ${storageKey.slice(DATA_KEY_PREFIX.length)}: ${cause}`);
      }
    });
  }

  /**
   * Lists the stored entries and reads those of `first` (this workbook's keys) into memory;
   * every other stored entry is read on first use (ensure). Without `first`, reads all.
   * Unreadable entries are skipped (and logged), never fatal.
   */
  async load(first?: Iterable<string>): Promise<void> {
    const stored = (await this.storage.keys())
      .filter((storageKey) => storageKey.startsWith(DATA_KEY_PREFIX))
      .map((storageKey) => storageKey.slice(DATA_KEY_PREFIX.length));
    for (const key of stored) if (!this.entries.has(key)) this.unread.add(key);
    const wanted = first === undefined ? stored : [...first];
    await this.ensureMany(wanted);
  }

  /** True when storage holds an entry for the key that memory does not have yet. */
  isUnread(key: string): boolean {
    return this.unread.has(key);
  }

  /** Reads the key's stored entry into memory if it has one not read yet. */
  ensure(key: string): Promise<void> {
    if (!this.unread.has(key)) return Promise.resolve();
    let read = this.reading.get(key);
    if (read === undefined) {
      read = this.read(key).finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  async ensureMany(keys: Iterable<string>): Promise<void> {
    const reads: Array<Promise<void>> = [];
    for (const key of keys) if (this.unread.has(key)) reads.push(this.ensure(key));
    await Promise.all(reads);
  }

  private async read(key: string): Promise<void> {
    const storageKey = DATA_KEY_PREFIX + key;
    let stored: unknown;
    try {
      stored = await this.storage.get<unknown>(storageKey);
    } catch (error) {
      // Left unread: the next use tries again (the cell meanwhile fetches as if uncached).
      this.log?.(
        "warn",
        `Could not read the cached ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    // Cleared, or written in this session meanwhile: what memory holds is newer.
    if (!this.unread.delete(key) || this.entries.has(key) || stored === undefined) return;
    const parsed = parseStored(stored);
    if (parsed !== undefined && parsed.key === key) this.entries.set(key, fromStored(parsed));
    else this.log?.("warn", `Ignoring an unreadable cache entry '${storageKey}'`);
  }

  /** The entry in memory (a stored entry not read yet is undefined: ensure it first). */
  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  /**
   * Stores a complete entry; resolves once it is persisted. Memory is updated at once and
   * kept even when persisting fails (the data is good). Entries put in the same turn, or
   * while a write is running, are written in one transaction; a failed one is logged per
   * entry and leaves what storage held before.
   */
  put(entry: CacheEntry): Promise<void> {
    this.entries.set(entry.key, entry);
    this.unread.delete(entry.key);
    return this.writes.write(DATA_KEY_PREFIX + entry.key, toStored(entry));
  }

  /** Resolves once every entry put so far has been written (or its failure logged). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  /** Every key with an entry, in memory or only in storage. */
  keys(): string[] {
    return [...this.entries.keys(), ...this.unread];
  }

  /**
   * Entries and their size in memory's form. Entries not read yet are read to be measured,
   * and not kept (the Status tab must not load every workbook's series).
   */
  async size(): Promise<{ entries: number; bytes: number }> {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += JSON.stringify(entry).length;
    let entries = this.entries.size;
    for (const key of [...this.unread]) {
      try {
        const parsed = parseStored(await this.storage.get<unknown>(DATA_KEY_PREFIX + key));
        if (parsed === undefined || !this.unread.has(key)) continue;
        bytes += JSON.stringify(fromStored(parsed)).length;
        entries += 1;
      } catch {
        // An entry storage cannot read now is not counted.
      }
    }
    return { entries, bytes };
  }

  /** Deletes every data entry (memory and storage); other keys (settings) stay. */
  async clear(): Promise<void> {
    this.entries.clear();
    this.unread.clear();
    // A write still queued would bring a deleted entry back.
    this.writes.discardPending();
    await this.writes.flush();
    const keys = (await this.storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX));
    await Promise.all(keys.map((key) => this.storage.delete(key)));
  }
}
