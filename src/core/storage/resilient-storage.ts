// Wraps the persistent store so that a broken or hanging IndexedDB (seen in some Office
// hosts) degrades to memory for the session instead of leaving cells on #BUSY!. The
// first failure switches every later operation to memory and records why, so the pane
// can tell the user that nothing will survive a restart.
import type { KeyValueStorage } from "../environment";
import { MemoryStorage } from "./memory-storage";
import { ENGINE_DEFAULTS } from "../defaults";
import { realScheduler, type Scheduler } from "../scheduler";

export interface ResilientStorageOptions {
  /** How long one primary operation may take before it counts as hanging (default 3 s). */
  timeoutMs?: number;
  /** What the primary is, for the reason text (default "IndexedDB"). */
  label?: string;
  onFallback?: (reason: string) => void;
  /**
   * Runs each operation's watchdog (default: the real setTimeout). A test of a working
   * store passes timers it holds, so that a slow machine never counts as a hanging store.
   */
  scheduler?: Scheduler;
}

export interface ResilientStorage extends KeyValueStorage {
  /** Why the store runs from memory, or null while the primary works. */
  fallbackReason(): string | null;
}

/** Why a storage runs from memory when it is a resilient one (null: it is not, or it works). */
export function storageFallbackReason(storage: KeyValueStorage): string | null {
  const fallbackReason = (storage as Partial<ResilientStorage>).fallbackReason;
  return typeof fallbackReason === "function" ? fallbackReason.call(storage) : null;
}

export const DEFAULT_STORAGE_TIMEOUT_MS = ENGINE_DEFAULTS.storageTimeoutMs;

class TimeoutError extends Error {}

function withTimeout<T>(operation: Promise<T>, timeoutMs: number, scheduler: Scheduler): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = scheduler.after(timeoutMs, () =>
      reject(new TimeoutError(`no answer within ${timeoutMs / 1000} s`)),
    );
    operation.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function createResilientStorage(
  primary: KeyValueStorage,
  options: ResilientStorageOptions = {},
): ResilientStorage {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
  const label = options.label ?? "IndexedDB";
  const scheduler = options.scheduler ?? realScheduler;
  const memory = new MemoryStorage();
  let reason: string | null = null;

  async function run<T>(attempt: (store: KeyValueStorage) => Promise<T>): Promise<T> {
    if (reason === null) {
      try {
        return await withTimeout(
          Promise.resolve().then(() => attempt(primary)),
          timeoutMs,
          scheduler,
        );
      } catch (error) {
        // Re-check: a concurrent operation may already have switched over.
        if (reason === null) {
          const cause = error instanceof Error ? error.message : String(error);
          reason = `${label} is unavailable (${cause}); PCD runs from memory this session`;
          options.onFallback?.(reason);
        }
      }
    }
    return attempt(memory);
  }

  return {
    get persistent() {
      return reason === null && primary.persistent;
    },
    get: <T>(key: string) => run((store) => store.get<T>(key)),
    set: (key, value) => run((store) => store.set(key, value)),
    setMany: (entries) =>
      run(async (store) => {
        if (store.setMany) await store.setMany(entries);
        else await Promise.all(entries.map(([key, value]) => store.set(key, value)));
      }),
    delete: (key) => run((store) => store.delete(key)),
    keys: () => run((store) => store.keys()),
    fallbackReason: () => reason,
  };
}
