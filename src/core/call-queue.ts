// The codes of one batch group (product + data type + operation) that wait for a call.
// A call holds at most `perCall` codes and never the same code twice (two currencies of
// one series need two calls), so the fewest calls for the queue is
// max(ceil(size / perCall), most copies of one code). Calls are taken one at a time,
// when a send slot is granted, and `take` picks the codes so that the rest still fits in
// that minimum: one copy each of the most-repeated codes first.

export class CallQueue<T> {
  private readonly byCode = new Map<string, T[]>();
  /** atLeast[j]: how many codes have j or more copies queued (atLeast[0] unused). */
  private readonly atLeast: number[] = [0];
  private count = 0;

  constructor(
    private readonly codeOf: (item: T) => string,
    private readonly perCall: number,
  ) {}

  get size(): number {
    return this.count;
  }

  add(item: T): void {
    const code = this.codeOf(item);
    const copies = this.byCode.get(code);
    if (copies) copies.push(item);
    else this.byCode.set(code, [item]);
    const multiplicity = copies?.length ?? 1;
    this.atLeast[multiplicity] = (this.atLeast[multiplicity] ?? 0) + 1;
    this.count += 1;
  }

  /** The fewest calls that carry everything queued. */
  minimumCalls(): number {
    return Math.max(Math.ceil(this.count / this.perCall), this.atLeast.length - 1);
  }

  /**
   * Whether `calls` calls of `perCall` distinct codes each can be filled now: each call
   * takes a code once, so code c contributes min(copies of c, calls) entries.
   */
  fills(calls: number): boolean {
    let entries = 0;
    for (let copies = 1; copies <= calls; copies++) entries += this.atLeast[copies] ?? 0;
    return entries >= calls * this.perCall;
  }

  /**
   * Removes and returns the next call: up to `perCall` distinct codes, the most-repeated
   * first (ties in arrival order), the earliest copy of each. Taking the most-repeated
   * codes first keeps minimumCalls() falling by one per call, so nothing is left over.
   */
  take(): T[] {
    const call: T[] = [];
    for (const [code, copies] of this.choose()) {
      const multiplicity = copies.length;
      const first = copies.shift();
      if (first === undefined) continue;
      call.push(first);
      this.atLeast[multiplicity] = (this.atLeast[multiplicity] ?? 1) - 1;
      if (copies.length === 0) this.byCode.delete(code);
    }
    this.count -= call.length;
    while (this.atLeast.length > 1 && this.atLeast[this.atLeast.length - 1] === 0) this.atLeast.pop();
    return call;
  }

  /**
   * The codes of the next call: what a stable sort of every queued code by copies (most
   * first) would put first, without the sort. A cold workbook queues thousands of codes and
   * takes them 40 at a time: sorting a copy of the whole queue for every call made an entry
   * per code and call. Codes with more than one copy are few (one series in two currencies):
   * they are found by one scan per number of copies; the single-copy codes then come in
   * arrival order, and the scan stops once the call is full.
   */
  private choose(): Array<[string, T[]]> {
    const chosen: Array<[string, T[]]> = [];
    for (let copies = this.atLeast.length - 1; copies > 1 && chosen.length < this.perCall; copies--) {
      // How many codes have exactly this many copies: none, no scan; all found, stop.
      let exactly = (this.atLeast[copies] ?? 0) - (this.atLeast[copies + 1] ?? 0);
      if (exactly === 0) continue;
      for (const [code, queued] of this.byCode) {
        if (queued.length !== copies) continue;
        chosen.push([code, queued]);
        exactly -= 1;
        if (exactly === 0 || chosen.length === this.perCall) break;
      }
    }
    if (chosen.length < this.perCall) {
      for (const [code, queued] of this.byCode) {
        if (queued.length !== 1) continue;
        chosen.push([code, queued]);
        if (chosen.length === this.perCall) break;
      }
    }
    return chosen;
  }
}
