// The series cache: merged monthly data per request key, mirrored in memory (cells read
// it synchronously through peek) and persisted under "pcd:data:<key>". An entry is only
// ever replaced after a successful answer, merged with what it held, so a failing call
// can never leave a cell with less than it had. Each entry records which months it covers
// and as of which catalog state (coverage.ts), so cells are served only complete months.
import * as v from "valibot";
import type { CoveredRange } from "./coverage";
import type { KeyValueStorage, Logger } from "./environment";
import type { Month, MonthlyPoint } from "./model";
import { WriteBatch } from "./storage/write-batch";
import { packPoints, StoredPointsSchema, unpackPoints } from "./stored-points";

export const DATA_KEY_PREFIX = "pcd:data:";

export interface CacheEntry {
  key: string;
  /** Oldest first, one point per month. */
  finals: MonthlyPoint[];
  forecasts: MonthlyPoint[];
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
  /** Series Info updated_at when Series Values last answered (window and forecasts as of then). */
  valuesAsOf: string | null;
  /** Series Info updated_at when History last answered. */
  historyAsOf: string | null;
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
  /** Written by versions before coverage: History merged, the Values call that followed failed. */
  pendingValues: v.optional(v.boolean()),
});

type StoredEntry = v.InferOutput<typeof CacheEntrySchema>;

/** What put writes (stored-points.ts): the points as flat arrays, marked by `format`. */
export const PACKED_FORMAT = 2;

const PackedEntrySchema = v.object({
  ...CacheEntrySchema.entries,
  format: v.literal(PACKED_FORMAT),
  finals: StoredPointsSchema,
  forecasts: StoredPointsSchema,
});

type PackedEntry = v.InferOutput<typeof PackedEntrySchema>;

/** The stored form of an entry (the form every entry is written in). */
export function toStored(entry: CacheEntry): PackedEntry {
  return {
    ...entry,
    format: PACKED_FORMAT,
    finals: packPoints(entry.finals),
    forecasts: packPoints(entry.forecasts),
  };
}

/** Reads either stored form: packed, or one object per month (entries written before). */
function parseStored(stored: unknown): StoredEntry | undefined {
  if (
    typeof stored === "object" &&
    stored !== null &&
    (stored as { format?: unknown }).format === PACKED_FORMAT
  ) {
    const packed = v.safeParse(PackedEntrySchema, stored);
    if (!packed.success) return undefined;
    const { format: _format, finals, forecasts, ...rest } = packed.output;
    return { ...rest, finals: unpackPoints(finals), forecasts: unpackPoints(forecasts) };
  }
  const parsed = v.safeParse(CacheEntrySchema, stored);
  return parsed.success ? parsed.output : undefined;
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

  /** Reads every stored entry into memory; unreadable entries are skipped (and logged), never fatal. */
  async load(): Promise<void> {
    const keys = (await this.storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX));
    await Promise.all(
      keys.map(async (storageKey) => {
        const parsed = parseStored(await this.storage.get<unknown>(storageKey));
        if (parsed !== undefined && DATA_KEY_PREFIX + parsed.key === storageKey) {
          // Entries written in this session are newer than what storage held.
          if (!this.entries.has(parsed.key)) this.entries.set(parsed.key, fromStored(parsed));
        } else {
          this.log?.("warn", `Ignoring an unreadable cache entry '${storageKey}'`);
        }
      }),
    );
  }

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
    return this.writes.write(DATA_KEY_PREFIX + entry.key, toStored(entry));
  }

  /** Resolves once every entry put so far has been written (or its failure logged). */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  size(): { entries: number; bytes: number } {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += JSON.stringify(entry).length;
    return { entries: this.entries.size, bytes };
  }

  /** Deletes every data entry (memory and storage); other keys (settings) stay. */
  async clear(): Promise<void> {
    this.entries.clear();
    // A write still queued would bring a deleted entry back.
    this.writes.discardPending();
    await this.writes.flush();
    const keys = (await this.storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX));
    await Promise.all(keys.map((key) => this.storage.delete(key)));
  }
}
