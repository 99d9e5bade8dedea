// One string per distinct text of a catalog answer. JSON.parse makes a new string for every
// value it reads, and splitting a list makes more: a catalog of thousands of series held
// "USD" ten thousand times, its dates and lists as often, some 7 MB of copies kept for as
// long as the catalog is. The pool lives for one answer's parse and is then let go.

/** Texts longer than this are kept as they come (descriptions rarely repeat). */
const MAX_POOLED_LENGTH = 64;

export class TextPool {
  private readonly texts = new Map<string, string>();

  /** The first instance seen of an equal text (the text itself when it is new or long). */
  of(text: string): string {
    if (text.length > MAX_POOLED_LENGTH) return text;
    const pooled = this.texts.get(text);
    if (pooled !== undefined) return pooled;
    this.texts.set(text, text);
    return text;
  }

  /** of() for a text that may be absent. */
  ofOptional(text: string | null): string | null {
    return text === null ? null : this.of(text);
  }

  /** A record's copy whose text values are pooled (other values kept as they are). */
  record(record: Record<string, unknown>): Record<string, unknown> {
    return this.fields(record, (value) => (typeof value === "string" ? this.of(value) : value));
  }

  /**
   * A copy of plain data (objects and arrays, as storage gives them back) whose texts are
   * pooled at any depth; a frozen object's copy is frozen. A catalog read from storage comes
   * back from its structured clone with a copy of every text, as an answer does.
   */
  copy<T>(value: T): T {
    if (typeof value === "string") return this.of(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.copy(item)) as T;
    if (!isPlainObject(value)) return value;
    const copy = this.fields(value, (field) => this.copy(field));
    return (Object.isFrozen(value) ? Object.freeze(copy) : copy) as T;
  }

  private fields(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
    // A loop, not fromEntries over entries: a catalog has thousands of records of twenty-odd
    // fields, and no array of pairs is made for each (with the records' schema checking only
    // what it reads, schemas.ts, 3,370 records parsed in 50 to 56 ms instead of 67 to 74).
    const copy: Record<string, unknown> = {};
    for (const field of Object.keys(record)) {
      const value = map(record[field]);
      // Assigning "__proto__" would set the copy's prototype: that field is defined instead.
      if (field === "__proto__") {
        Object.defineProperty(copy, field, { value, enumerable: true, writable: true, configurable: true });
      } else {
        copy[field] = value;
      }
    }
    return copy;
  }
}

/**
 * An object made as a literal or by a structured clone, of any realm (storage may give back
 * another global's objects): its prototype is an Object.prototype, whose own is null.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}
