// Rows as aligned columns for a terminal: numbers to the right, text to the left.

export function textTable(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === "number"),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
