// PCD.SEARCH cells: a header row, then the best matches first.
import type { SearchHit } from "../../core/engine-api";
import type { CellTable } from "../cell-value";

export const SEARCH_HEADER = ["Code", "Assessment", "Coverage", "Default currency", "Default unit"];

export function buildSearchTable(hits: readonly SearchHit[], maxRows: number): CellTable {
  const rows = [...hits]
    .sort((a, b) => b.score - a.score)
    .slice(0, maxRows)
    .map(({ info }) => [
      info.code,
      info.assessment,
      info.coverage,
      info.defaultCurrency ?? "",
      info.defaultUnit ?? "",
    ]);
  return [SEARCH_HEADER, ...rows];
}
