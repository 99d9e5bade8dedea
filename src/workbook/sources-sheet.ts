// The visible "PCD sources" sheet: what a recipient without PCD reads to know where the
// frozen numbers come from. One row per series (code, currency, unit) of the frozen
// cells, with the cells that show it.
import type { CellScalar } from "./workbook-host";
import type { FrozenRecord } from "./frozen-record";
import { byPosition } from "./range-address";

export const SOURCES_SHEET = "PCD sources";

export const SOURCES_HEADER = [
  "Series",
  "Description",
  "Currency",
  "Unit",
  "Release",
  "Latest month",
  "Date retrieved",
  "Data owner",
  "Frozen cells",
] as const;

export function sourcesSheetRows(record: FrozenRecord): CellScalar[][] {
  const rows = new Map<string, { row: CellScalar[]; cells: string[] }>();
  for (const cell of [...record.cells].sort((a, b) => byPosition(a.address, b.address))) {
    for (const series of cell.series) {
      const id = `${series.code}|${series.currency ?? ""}|${series.unit ?? ""}|${series.releaseMonth ?? ""}`;
      const existing = rows.get(id);
      if (existing) {
        if (!existing.cells.includes(cell.range)) existing.cells.push(cell.range);
        continue;
      }
      rows.set(id, {
        row: [
          series.code,
          series.description,
          series.currency ?? "",
          series.unit ?? "",
          series.releaseMonth ?? "unknown",
          series.latestMonth ?? "",
          series.retrievedAt === null ? "unknown" : series.retrievedAt.slice(0, 10),
          series.owner,
        ],
        cells: [cell.range],
      });
    }
  }
  const body = [...rows.values()].map(({ row, cells }) => [...row, cells.join(", ")]);
  const note =
    body.length === 0
      ? ["No cells are frozen: PCD's formulas are live."]
      : [
          "These cells hold values frozen by PCD, not formulas. With PCD, Freeze > Restore puts the formulas back.",
        ];
  return [[...SOURCES_HEADER], ...body, [], note];
}
