// How many bytes of heap a value keeps alive, measured with full collections around it:
// for tests of data that is held long (shared tables, cached series), where the layout of
// every row counts many thousands of times over.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

function collector(): () => void {
  setFlagsFromString("--expose-gc");
  const gc: unknown = runInNewContext("gc");
  if (typeof gc !== "function") throw new Error("V8's gc could not be exposed");
  return gc as () => void;
}

/**
 * The heap that `make`'s result holds once everything else it allocated is collected, with
 * the ArrayBuffers' memory outside the heap (typed arrays' values live there).
 */
export function retainedBytes(make: () => unknown): number {
  const gc = collector();
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
