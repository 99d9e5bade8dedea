// The visible "PCD sources" sheet: what a recipient without PCD reads to know where the
// frozen numbers come from. One row per series (code, currency, unit) of the frozen
// cells, with the cells that show it.
import type { CellScalar } from "./workbook-host";
import type { FrozenRecord } from "./frozen-record";
import { byPosition, parseArea } from "./range-address";

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

function isAddress(address: string): boolean {
  try {
    parseArea(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * The record's cells in the order a person reads the workbook. An entry whose address is not
 * one (a record edited in the file) comes after the rest, as the record lists it: Restore
 * reports it, and it must not stop Freeze or Restore from writing this sheet.
 */
function inReadingOrder(cells: FrozenRecord["cells"]): FrozenRecord["cells"] {
  const placed = cells.filter((cell) => isAddress(cell.address));
  return [
    ...placed.sort((a, b) => byPosition(a.address, b.address)),
    ...cells.filter((cell) => !isAddress(cell.address)),
  ];
}

export function sourcesSheetRows(record: FrozenRecord): CellScalar[][] {
  const rows = new Map<string, { row: CellScalar[]; cells: string[] }>();
  for (const cell of inReadingOrder(record.cells)) {
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
