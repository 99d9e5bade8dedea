// A small map from request key ids to values for one cell. Almost every cell shows one
// series, and a recalculation re-creates every cell: a Map per cell for what it holds,
// watches and read (three per cell) was a large share of a warm pass's garbage. The first
// key lives in two fields; a Map is made only for a cell with a second key.

export class KeySlots<V> {
  private firstKey: string | undefined;
  private firstValue: V | undefined;
  private more: Map<string, V> | undefined;

  get size(): number {
    return (this.firstKey === undefined ? 0 : 1) + (this.more?.size ?? 0);
  }

  has(key: string): boolean {
    return this.firstKey === key || (this.more?.has(key) ?? false);
  }

  get(key: string): V | undefined {
    return this.firstKey === key ? this.firstValue : this.more?.get(key);
  }

  /** Sets a key's value (a key set before keeps its place). */
  set(key: string, value: V): void {
    if (this.firstKey === undefined || this.firstKey === key) {
      if (this.firstKey === undefined && this.more?.has(key)) {
        this.more.set(key, value);
        return;
      }
      this.firstKey = key;
      this.firstValue = value;
      return;
    }
    (this.more ??= new Map()).set(key, value);
  }

  delete(key: string): boolean {
    if (this.firstKey === key) {
      this.firstKey = undefined;
      this.firstValue = undefined;
      return true;
    }
    return this.more?.delete(key) ?? false;
  }

  /** Calls fn for every key; fn may delete the key it is given. */
  forEach(fn: (value: V, key: string) => void): void {
    const { firstKey, firstValue, more } = this;
    if (firstKey !== undefined) fn(firstValue as V, firstKey);
    if (more !== undefined) for (const [key, value] of [...more]) fn(value, key);
  }

  clear(): void {
    this.firstKey = undefined;
    this.firstValue = undefined;
    this.more = undefined;
  }
}
