// window.__pcdPreview: what browser tests (and a curious person in the console) can read
// from the mock host: recorded writes, the selection, the cells' results.
import { cellName, parseRange, rangeAddress, SHEET_NAME } from "./a1";
import type { CellEvaluator } from "./cell-evaluator";
import type { PreviewHost, RecordedWrite } from "./mock-office";
import type { PageActivity } from "./page-activity";
import { displayScalar, type DisplayCell } from "./sheet-layout";

export interface PreviewCell {
  content: string;
  text: string;
  error: { code: string; message: string } | null;
  busy: boolean;
}

export interface PcdPreviewApi {
  functions(): string[];
  writes(): RecordedWrite[];
  selection(): string;
  select(address: string): void;
  enter(address: string, content: string): void;
  cell(address: string): PreviewCell;
  /** The texts shown in a block of cells, row by row (e.g. a spilled table). */
  texts(address: string): string[][];
  /** How many times a cell's result was set (its streaming updates). */
  updates(address: string): number;
  calculations(): number;
  taskpaneShown(): number;
  /** What Office.addin.setStartupBehavior last set: "Load" or "None". */
  startupBehavior(): string;
  runAction(id: string): Promise<void>;
  /** The workbook's sheets, Sheet1 first (PCD sources and reports after it). */
  sheetNames(): string[];
  /** A sheet's filled block as texts, row by row, from A1 (Sheet1: what its cells show). */
  sheet(name: string): string[][];
  /** A document setting as saved (Office.context.document.settings), or null. */
  setting(name: string): unknown;
  /** Sets a document setting, as a workbook someone else saved would hold it. */
  setSetting(name: string, value: unknown): void;
  /** A number format written into a cell of Sheet1 ("General" when none). */
  numberFormat(address: string): string;
  /** What the page has under way that a clock jump would cut short (page-activity.ts). */
  underWay(): { fetches: number; storage: number };
}

export function createPreviewApi(
  host: PreviewHost,
  evaluator: CellEvaluator,
  layout: () => Map<string, DisplayCell>,
  activity: PageActivity,
): PcdPreviewApi {
  const { sheet, record } = host;
  return {
    functions: () => [...record.functions.keys()].sort(),
    writes: () =>
      record.writes.map((write) => ({
        address: write.address,
        formulas: write.formulas.map((row) => [...row]),
      })),
    selection: () => rangeAddress(sheet.selection()),
    select: (address) => sheet.select(parseRange(address)),
    enter: (address, content) => sheet.setContent(parseRange(address), content),
    cell: (address) => {
      const shown = layout().get(address.toUpperCase());
      return {
        content: sheet.content(parseRange(address)),
        text: shown?.text ?? "",
        error: shown?.error ?? null,
        busy: shown?.busy ?? false,
      };
    },
    texts: (address) => {
      const area = parseRange(address);
      const shown = layout();
      return Array.from({ length: area.rowCount }, (_, r) =>
        Array.from({ length: area.columnCount }, (_, c) => {
          return shown.get(cellName({ row: area.row + r, column: area.column + c }))?.text ?? "";
        }),
      );
    },
    updates: (address) => evaluator.history.get(address.toUpperCase())?.length ?? 0,
    calculations: () => record.calculations,
    taskpaneShown: () => record.taskpaneShown,
    startupBehavior: () => record.startupBehavior,
    runAction: (id) => host.runAction(id),
    sheetNames: () => host.sheetNames(),
    sheet: (name) => {
      const used = host.usedArea(name);
      if (!used) return [];
      const shown = name === SHEET_NAME ? layout() : null;
      return Array.from({ length: used.row + used.rowCount }, (_, r) =>
        Array.from({ length: used.column + used.columnCount }, (_, c) => {
          const position = { row: r, column: c };
          return shown
            ? (shown.get(cellName(position))?.text ?? "")
            : displayScalar(host.valueAt(name, position));
        }),
      );
    },
    setting: (name) => record.settings.get(name) ?? null,
    setSetting: (name, value) => record.settings.set(name, value),
    numberFormat: (address) => host.formatAt(SHEET_NAME, parseRange(address)),
    underWay: () => ({ fetches: activity.fetches(), storage: activity.storage() }),
  };
}
