// The request keys this workbook's cells ask for: what refresh-all refreshes and what
// its cost preview counts. Persisted (in the workbook itself where the host can: see
// EngineEnvironment.workbookStorage) so that after a reopen, refresh-all can plan before
// a single cell has evaluated.
//
// Cells hold their keys while they live (retain); when the last cell holding a key lets
// go (its formula was deleted or now asks for something else), the key leaves the list
// after a short grace, so a refresh never spends allowance on series no cell shows.
// The grace covers Excel's cancel-then-reinvoke when a formula's arguments change.
import type { KeyValueStorage, Logger } from "./environment";

export const WORKBOOK_KEYS_STORAGE_KEY = "pcd:workbook-keys";
export const RELEASE_GRACE_MS = 10_000;

export class WorkbookKeys {
  private readonly keys = new Set<string>();
  private readonly holders = new Map<string, number>();
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
    private readonly graceMs = RELEASE_GRACE_MS,
  ) {}

  async load(): Promise<void> {
    const stored = await this.storage.get<unknown>(WORKBOOK_KEYS_STORAGE_KEY);
    if (Array.isArray(stored)) for (const key of stored) if (typeof key === "string") this.keys.add(key);
  }

  /** Adds a key; writes are coalesced so a recalculation of 1,000 cells saves once or twice. */
  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.save();
  }

  /** A cell holds a key until it calls the returned release (once; later calls do nothing). */
  retain(key: string): () => void {
    this.add(key);
    this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holders.get(key) ?? 1) - 1;
      if (left > 0) {
        this.holders.set(key, left);
        return;
      }
      this.holders.delete(key);
      const timer: unknown = setTimeout(() => {
        if (this.holders.has(key) || !this.keys.delete(key)) return;
        this.save();
      }, this.graceMs);
      // In Node (headless runner, tests) a pending grace must not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
    };
  }

  list(): string[] {
    return [...this.keys];
  }

  /** Resolves once pending writes are done. */
  flushed(): Promise<void> {
    return this.saving;
  }

  private save(): void {
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
}
