// Tells cells when their data changed. Keys that change within one tick (a batch
// answer merges many series one after another) are delivered as one set, so the
// functions layer can recompute each affected cell once. Cells subscribe per key
// (onKeyChange), so a change costs in proportion to the cells that show the changed
// keys, not to every cell of the workbook.
import type { Logger } from "./environment";
import type { Unsubscribe } from "./engine-api";

export type Defer = (run: () => void) => void;

const nextTick: Defer = (run) => {
  setTimeout(run, 0);
};

export class ChangeEvents {
  private readonly changeListeners = new Set<(keys: ReadonlySet<string>) => void>();
  /** key -> listeners of cells that show it. */
  private readonly keyListeners = new Map<string, Set<() => void>>();
  private readonly metaListeners = new Set<() => void>();
  private readonly catalogListeners = new Set<() => void>();
  private pendingKeys = new Set<string>();
  private metaPending = false;
  private catalogPending = false;

  constructor(
    private readonly log?: Logger,
    private readonly defer: Defer = nextTick,
  ) {}

  onChange(listener: (keys: ReadonlySet<string>) => void): Unsubscribe {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Calls the listener when the key's data changed. A listener subscribed to several keys
   * that change in the same tick is called once.
   */
  onKeyChange(key: string, listener: () => void): Unsubscribe {
    let listeners = this.keyListeners.get(key);
    if (listeners === undefined) {
      listeners = new Set();
      this.keyListeners.set(key, listeners);
    }
    listeners.add(listener);
    return () => {
      const current = this.keyListeners.get(key);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size === 0) this.keyListeners.delete(key);
    };
  }

  onMetaChange(listener: () => void): Unsubscribe {
    this.metaListeners.add(listener);
    return () => this.metaListeners.delete(listener);
  }

  /** Like onMetaChange, but not for changes of the allowances alone (limitsChanged). */
  onCatalogChange(listener: () => void): Unsubscribe {
    this.catalogListeners.add(listener);
    return () => this.catalogListeners.delete(listener);
  }

  /** Queues keys whose finals or forecasts actually changed. */
  changed(key: string): void {
    const first = this.pendingKeys.size === 0;
    this.pendingKeys.add(key);
    if (first) this.defer(() => this.deliverChanges());
  }

  /** Queues a catalog / environment / session change notification (meta and catalog listeners). */
  metaChanged(): void {
    this.catalogPending = true;
    this.queueMeta();
  }

  /**
   * Queues a notification that only the allowances changed (limits read, requests admitted
   * or refused): meta listeners hear it, catalog listeners do not. It happens once per data
   * call, so cells that show catalog data (INFO, SEARCH) must not recompute on it.
   */
  limitsChanged(): void {
    this.queueMeta();
  }

  private queueMeta(): void {
    if (this.metaPending) return;
    this.metaPending = true;
    this.defer(() => {
      const catalog = this.catalogPending;
      this.metaPending = false;
      this.catalogPending = false;
      for (const listener of [...this.metaListeners]) this.call(() => listener());
      if (catalog) for (const listener of [...this.catalogListeners]) this.call(() => listener());
    });
  }

  private deliverChanges(): void {
    const keys: ReadonlySet<string> = this.pendingKeys;
    this.pendingKeys = new Set();
    if (keys.size === 0) return;
    const perKey = new Set<() => void>();
    for (const key of keys) {
      for (const listener of this.keyListeners.get(key) ?? []) perKey.add(listener);
    }
    for (const listener of perKey) this.call(listener);
    for (const listener of [...this.changeListeners]) this.call(() => listener(keys));
  }

  /** One failing listener must not keep the others (other cells) from updating. */
  private call(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.log?.(
        "error",
        `A change listener failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
