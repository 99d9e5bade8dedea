// The memory budgets as a Markdown table for BENCHMARKS.md's generated section (report.ts).
import type { MemoryFigure } from "./memory-budget";

export function renderMemory(figures: readonly MemoryFigure[] | undefined): string {
  if (figures === undefined || figures.length === 0) return "Not measured in this run.";
  const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;
  const header = ["Held in memory", "Bytes per unit (median)", "Samples", "Bound", "Met"];
  return [
    "Bytes of heap (and ArrayBuffer memory) one unit keeps alive, measured between full collections (`node --expose-gc`); the median of the samples is judged against the bound, and a figure over its bound fails the run.",
    "",
    row(header),
    row(header.map(() => "---")),
    ...figures.map((figure) =>
      row([
        figure.title,
        `${figure.median.toFixed(1)} per ${figure.unit}`,
        figure.samples.map((sample) => sample.toFixed(0)).join(", "),
        String(figure.bound),
        figure.met ? "yes" : "**no**",
      ]),
    ),
  ].join("\n");
}
