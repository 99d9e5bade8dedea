// The request keys this workbook's cells asked for. Persisted so that after a reopen,
// refresh-all can plan (and show its cost) before a single cell has evaluated.
import type { KeyValueStorage, Logger } from "./environment";

export const WORKBOOK_KEYS_STORAGE_KEY = "pcd:workbook-keys";

export class WorkbookKeys {
  private readonly keys = new Set<string>();
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
  ) {}

  async load(): Promise<void> {
    const stored = await this.storage.get<unknown>(WORKBOOK_KEYS_STORAGE_KEY);
    if (Array.isArray(stored)) for (const key of stored) if (typeof key === "string") this.keys.add(key);
  }

  /** Adds a key; writes are coalesced so a recalculation of 1,000 cells saves once or twice. */
  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    if (this.dirty) return;
    this.dirty = true;
    this.saving = this.saving.then(async () => {
      await Promise.resolve();
      this.dirty = false;
      try {
        await this.storage.set(WORKBOOK_KEYS_STORAGE_KEY, [...this.keys]);
      } catch (error) {
        this.log?.(
          "warn",
          `Could not save the workbook's keys: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }

  list(): string[] {
    return [...this.keys];
  }

  /** Resolves once pending writes are done. */
  flushed(): Promise<void> {
    return this.saving;
  }
}
