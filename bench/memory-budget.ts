// A memory budget's verdict: the median of several samples against its bound. Pure, so the
// comparison is tested with fixture numbers (test/bench/memory-budget.test.ts).
import type { BenchResults, TargetCheck } from "./results";

/** One measured budget of bench/results.json: bytes a unit keeps alive, per sample, and its bound. */
export interface MemoryFigure {
  id: string;
  /** What is measured, for a table row ("a cached point"). */
  title: string;
  /** What a byte count is per ("point", "cell", "row"). */
  unit: string;
  samples: number[];
  median: number;
  bound: number;
  met: boolean;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error("A median needs at least one sample");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The figure of a budget from its samples: met while the median stays at or under the bound. */
export function judgeBudget(
  budget: { id: string; title: string; unit: string; bound: number },
  samples: readonly number[],
): MemoryFigure {
  const middle = median(samples);
  return {
    ...budget,
    samples: [...samples],
    median: middle,
    bound: budget.bound,
    met: middle <= budget.bound,
  };
}

/** The budgets as target rows beside the workloads' targets. */
export function memoryTargets(figures: readonly MemoryFigure[]): TargetCheck[] {
  return figures.map((figure) => ({
    workload: "Memory",
    target: `${figure.title} <= ${figure.bound} bytes per ${figure.unit}`,
    value: `${figure.median.toFixed(1)} bytes (median of ${figure.samples.length})`,
    met: figure.met,
  }));
}

/** The budgets over their bound (the benchmark then exits with a failure). */
export function exceededBudgets(figures: readonly MemoryFigure[]): MemoryFigure[] {
  return figures.filter((figure) => !figure.met);
}

/**
 * An earlier run's results with these memory figures in place of its own (`--only-memory`):
 * the workloads' figures stay, the memory rows of the targets are the new ones.
 */
export function withMemory(previous: BenchResults, figures: readonly MemoryFigure[]): BenchResults {
  return {
    ...previous,
    memory: [...figures],
    targets: [...previous.targets.filter((check) => check.workload !== "Memory"), ...memoryTargets(figures)],
  };
}
