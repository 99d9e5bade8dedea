// A series' monthly points as the cache holds them in memory: the values in one
// Float64Array and the months as the first month's index (plus an Int32Array of month
// indexes only when the months have gaps). One object per point cost about 64 bytes
// (the object, its boxed value); a large workbook held close to a million of them, the
// largest part of its memory. Here a point costs 8 bytes (12 with gaps). Columns are
// never changed once made: a merge makes new ones, so a series version's columns can be
// shared by every cell and memo that reads them (src/functions/shape/series-memo.ts).
import type { Month, MonthlyPoint } from "./model";
import { monthIndex, monthOfIndex } from "./months";

export class PointColumns implements Iterable<MonthlyPoint> {
  /** One shared empty instance (most series have no forecasts). */
  static readonly EMPTY = new PointColumns(0, null, new Float64Array(0));

  readonly length: number;

  private constructor(
    /** Month index of the first point (months.ts monthIndex); 0 when empty. */
    private readonly first: number,
    /** Month index per point, oldest first; null when the months run without a gap. */
    private readonly months: Int32Array | null,
    private readonly values: Float64Array,
  ) {
    this.length = values.length;
  }

  /**
   * Columns from month indexes and values in the same order, strictly ascending (the
   * caller's promise: merge.ts and stored-points.ts build them in order). The month
   * column is dropped when the months are consecutive.
   */
  static fromIndexes(months: ArrayLike<number>, values: ArrayLike<number>): PointColumns {
    const count = values.length;
    if (months.length !== count) throw new RangeError("months and values differ in length");
    if (count === 0) return PointColumns.EMPTY;
    const first = months[0] as number;
    let consecutive = true;
    for (let index = 1; index < count; index += 1) {
      const month = months[index] as number;
      const previous = months[index - 1] as number;
      if (month <= previous) throw new RangeError("point months must be strictly ascending");
      if (month !== previous + 1) consecutive = false;
    }
    const column = values instanceof Float64Array ? values : Float64Array.from(values);
    const monthColumn = months instanceof Int32Array ? months : Int32Array.from(months);
    return new PointColumns(first, consecutive ? null : monthColumn, column);
  }

  /**
   * Columns from month indexes and values in any order; a month given twice keeps the last
   * value seen. The service sends newest first, some deployments oldest first: either
   * strict order is read with no map or sort (the arrays given may be reused).
   */
  static fromAnyOrder(months: Int32Array, values: Float64Array): PointColumns {
    const count = months.length;
    let ascending = true;
    let descending = true;
    for (let index = 1; index < count && (ascending || descending); index += 1) {
      const before = months[index - 1] as number;
      const month = months[index] as number;
      if (!(before < month)) ascending = false;
      if (!(before > month)) descending = false;
    }
    if (ascending) return PointColumns.fromIndexes(months, values);
    if (descending) return PointColumns.fromIndexes(months.reverse(), values.reverse());
    // Mixed order or repeated months: the last one seen wins, then oldest first.
    const byIndex = new Map<number, number>();
    for (let index = 0; index < count; index += 1)
      byIndex.set(months[index] as number, values[index] as number);
    const sorted = Int32Array.from(byIndex.keys()).sort();
    return PointColumns.fromIndexes(
      sorted,
      Float64Array.from(sorted, (month) => byIndex.get(month) as number),
    );
  }

  /** Columns from points in any order; a month given twice keeps the last one seen. */
  static fromPoints(points: readonly MonthlyPoint[]): PointColumns {
    const months = new Int32Array(points.length);
    const values = new Float64Array(points.length);
    points.forEach((point, index) => {
      months[index] = monthIndex(point.month);
      values[index] = point.value;
    });
    return PointColumns.fromAnyOrder(months, values);
  }

  /** Month index of the point at a position (0 = oldest). */
  indexAt(position: number): number {
    return this.months === null ? this.first + position : (this.months[position] as number);
  }

  monthAt(position: number): Month {
    return monthOfIndex(this.indexAt(position));
  }

  valueAt(position: number): number {
    return this.values[position] as number;
  }

  firstMonth(): Month | null {
    return this.length === 0 ? null : this.monthAt(0);
  }

  lastMonth(): Month | null {
    return this.length === 0 ? null : this.monthAt(this.length - 1);
  }

  /**
   * Position of a month index, or -1. Without gaps it is the distance from the first
   * month; with gaps a binary search of the ascending month column.
   */
  positionOfIndex(month: number): number {
    if (this.months === null) {
      const position = month - this.first;
      return position >= 0 && position < this.length ? position : -1;
    }
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = this.months[middle] as number;
      if (at === month) return middle;
      if (at < month) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** The first position whose month index is `month` or later (the length when there is none). */
  positionFrom(month: number): number {
    if (this.months === null) return Math.min(this.length, Math.max(0, month - this.first));
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.months[middle] as number) < month) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Copies the points at positions from..to (not included) into columns, starting at `at`. */
  copyTo(months: Int32Array, values: Float64Array, from: number, to: number, at: number): void {
    if (to <= from) return;
    values.set(this.values.subarray(from, to), at);
    if (this.months !== null) {
      months.set(this.months.subarray(from, to), at);
      return;
    }
    for (let position = from; position < to; position += 1)
      months[at + position - from] = this.first + position;
  }

  /** The value of a month, undefined when there is no point for it. */
  valueIn(month: Month): number | undefined {
    const position = this.positionOfIndex(monthIndex(month));
    return position < 0 ? undefined : this.valueAt(position);
  }

  has(month: Month): boolean {
    return this.positionOfIndex(monthIndex(month)) >= 0;
  }

  /** True when both hold the same months with the same values. */
  equals(other: PointColumns): boolean {
    if (other === this) return true;
    if (other.length !== this.length) return false;
    for (let position = 0; position < this.length; position += 1) {
      if (other.indexAt(position) !== this.indexAt(position)) return false;
      if (other.valueAt(position) !== this.valueAt(position)) return false;
    }
    return true;
  }

  /** The points kept whose month passes a test (this instance when all pass). */
  filterMonths(keep: (month: number) => boolean): PointColumns {
    let kept = 0;
    for (let position = 0; position < this.length; position += 1) if (keep(this.indexAt(position))) kept += 1;
    if (kept === this.length) return this;
    const months = new Int32Array(kept);
    const values = new Float64Array(kept);
    let filled = 0;
    for (let position = 0; position < this.length; position += 1) {
      const month = this.indexAt(position);
      if (!keep(month)) continue;
      months[filled] = month;
      values[filled] = this.valueAt(position);
      filled += 1;
    }
    return PointColumns.fromIndexes(months, values);
  }

  /**
   * The values column as the cache stores it (stored-points.ts). The column itself when it
   * is its buffer's whole length: columns never change, and storage copies what it is given
   * (IndexedDB's structured clone), so no copy is made here. A column that is part of a
   * larger buffer is copied: a clone of it would copy the whole buffer.
   */
  valuesColumn(): Float64Array {
    const { values } = this;
    return values.byteOffset === 0 && values.byteLength === values.buffer.byteLength
      ? values
      : values.slice();
  }

  /** The months as runs of consecutive month indexes, [first, count] per run. */
  monthRuns(): Array<[number, number]> {
    if (this.length === 0) return [];
    if (this.months === null) return [[this.first, this.length]];
    const runs: Array<[number, number]> = [];
    let run: [number, number] | undefined;
    for (const month of this.months) {
      if (run !== undefined && month === run[0] + run[1]) run[1] += 1;
      else runs.push((run = [month, 1]));
    }
    return runs;
  }

  /** The points as objects, oldest first (a copy: for callers outside the hot paths). */
  toPoints(): MonthlyPoint[] {
    const points = new Array<MonthlyPoint>(this.length);
    for (let position = 0; position < this.length; position += 1) {
      points[position] = { month: this.monthAt(position), value: this.valueAt(position) };
    }
    return points;
  }

  *[Symbol.iterator](): Iterator<MonthlyPoint> {
    for (let position = 0; position < this.length; position += 1) {
      yield { month: this.monthAt(position), value: this.valueAt(position) };
    }
  }

  /** What JSON.stringify writes (cache files, logs): the points as objects. */
  toJSON(): MonthlyPoint[] {
    return this.toPoints();
  }
}
