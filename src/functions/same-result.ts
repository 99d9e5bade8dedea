// Whether a cell's new result equals what it shows. Results shaped from series data are
// shared per data version (src/functions/shape/series-memo.ts), so an unchanged result is
// usually the same object and this returns at the first comparison; other results (INFO,
// LIMITS, SEARCH tables, numbers) are compared cell by cell, without building strings.

export function sameResult(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) {
      if (!sameResult(a[index], b[index])) return false;
    }
    return true;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(b)) {
    return false;
  }
  // Plain records (formatted-number cells: type, basicValue, numberFormat).
  const keysOfA = Object.keys(a);
  if (keysOfA.length !== Object.keys(b).length) return false;
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  return keysOfA.every((key) => Object.hasOwn(recordB, key) && sameResult(recordA[key], recordB[key]));
}
