// The series cache: merged monthly data per request key, mirrored in memory (cells read
// it synchronously through peek) and persisted under "pcd:data:<key>". An entry is only
// ever replaced by a complete merged entry after a successful fetch, so a failing call
// can never leave a cell with less than it had.
import * as v from "valibot";
import type { KeyValueStorage, Logger } from "./environment";
import type { Month, MonthlyPoint } from "./model";

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
  /** The Series Info updated_at this entry is in sync with (the catalog revision marker). */
  catalogUpdatedAt: string | null;
  /** History was merged but the Values call that had to follow it failed. */
  pendingValues?: boolean;
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
  pendingValues: v.optional(v.boolean()),
});

export class DataCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
  ) {}

  /** Reads every stored entry into memory; unreadable entries are skipped (and logged), never fatal. */
  async load(): Promise<void> {
    const keys = (await this.storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX));
    await Promise.all(
      keys.map(async (storageKey) => {
        const stored = await this.storage.get<unknown>(storageKey);
        const parsed = v.safeParse(CacheEntrySchema, stored);
        if (parsed.success && DATA_KEY_PREFIX + parsed.output.key === storageKey) {
          // Entries written in this session are newer than what storage held.
          if (!this.entries.has(parsed.output.key)) this.entries.set(parsed.output.key, parsed.output);
        } else {
          this.log?.("warn", `Ignoring an unreadable cache entry '${storageKey}'`);
        }
      }),
    );
  }

  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  /** Stores a complete entry. Memory is updated even when persisting fails (the data is good). */
  async put(entry: CacheEntry): Promise<void> {
    this.entries.set(entry.key, entry);
    try {
      await this.storage.set(DATA_KEY_PREFIX + entry.key, entry);
    } catch (error) {
      this.log?.(
        "warn",
        `Could not persist ${entry.key}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
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
    const keys = (await this.storage.keys()).filter((key) => key.startsWith(DATA_KEY_PREFIX));
    await Promise.all(keys.map((key) => this.storage.delete(key)));
  }
}
