// How many bytes of heap a value keeps alive, measured with full collections around it.
// Needs V8's gc, exposed by starting Node with --expose-gc (`npm run bench` does).

type Collect = () => void;

/** V8's full collection, or an error saying how to start the process. */
export function exposedGc(): Collect {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== "function") {
    throw new Error(
      "The memory figures need V8's gc: run the benchmark with `node --expose-gc --import tsx bench/run.ts` (npm run bench does).",
    );
  }
  return gc as Collect;
}

/**
 * The heap that `make`'s result holds once everything else it allocated is collected, with
 * the ArrayBuffers' memory outside the heap (typed arrays' values live there).
 */
export function retainedBytes(make: () => unknown, gc: Collect = exposedGc()): number {
  // Twice: a first collection can leave what only its own weak maps let go.
  gc();
  gc();
  const held = (): number => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const before = held();
  const kept = make();
  gc();
  const after = held();
  // Read after the measure, so the value is alive through the second collection.
  if (kept === undefined) throw new Error("make() must return what it keeps");
  return after - before;
}
