// In-memory KeyValueStorage: the fallback when IndexedDB fails, and the store of tests
// and short-lived hosts. Values are cloned on the way in and out so callers can never
// mutate what is stored (the same guarantee IndexedDB's structured cloning gives).
import type { KeyValueStorage } from "../environment";

export class MemoryStorage implements KeyValueStorage {
  readonly persistent = false;
  private readonly values = new Map<string, unknown>();

  async get<T>(key: string): Promise<T | undefined> {
    const value = this.values.get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }

  async set(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
  }

  async setMany(entries: ReadonlyArray<readonly [string, unknown]>): Promise<void> {
    // Cloned first, so that a value that cannot be cloned leaves every key as it was.
    const cloned = entries.map(([key, value]) => [key, structuredClone(value)] as const);
    for (const [key, value] of cloned) this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
}
