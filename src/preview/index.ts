// Entry of the preview page (development builds only). Runs before the add-in's bundles:
// it installs the mock Office host, so the real functions register with it, the ribbon
// command associates with it and the task pane writes through it; then it draws the grid.
import { parseCell, SHEET_NAME } from "./a1";
import { CellEvaluator, type CellResult } from "./cell-evaluator";
import { mountGrid } from "./grid";
import { PreviewHost } from "./mock-office";
import { countPageActivity } from "./page-activity";
import { createPreviewApi, type PcdPreviewApi } from "./preview-api";
import { layoutSheet, type DisplayCell } from "./sheet-layout";
import { SheetModel } from "./sheet-model";

declare global {
  interface Window {
    __pcdPreview: PcdPreviewApi;
  }
}

// Enough rows for a whole monthly table (2007 onwards, with forecasts) to spill.
const ROWS = 300;
const COLUMNS = 8;

// Before the add-in's bundles run, so every fetch and IndexedDB transaction they make is counted.
const activity = countPageActivity(window);

const sheet = new SheetModel(ROWS, COLUMNS);
const host = new PreviewHost(sheet, () => evaluator.recalculateAll());
const evaluator = new CellEvaluator(sheet, (name) => host.record.functions.get(name));
/**
 * The sheet's layout, made again only after something it is made of changed (a cell's
 * content, a result, a written format): reading a range asks for it once per cell, and made
 * anew for each cell read, writing a report beside two whole history tables costs the page
 * about 12 s.
 */
let shownLayout: Map<string, DisplayCell> | undefined;
const forgetLayout = (): void => {
  shownLayout = undefined;
};
sheet.subscribe(forgetLayout);
evaluator.onResult(forgetLayout);
host.onWorkbookChange(forgetLayout);
sheet.subscribe((event) => {
  if (event.type === "cell") evaluator.evaluate(event.address);
});
/**
 * A typed number in a cell given a date format (a frozen table's dates) shows as a date,
 * as Excel draws a formatted cell: the result is handed to the layout as a formatted number.
 */
const shownResult = (address: string): CellResult | undefined => {
  const result = evaluator.result(address);
  const position = parseCell(address);
  const format = host.writtenFormat(SHEET_NAME, position);
  if (format === undefined || result?.kind !== "value" || typeof result.value !== "number") return result;
  if (sheet.content(position).startsWith("=")) return result;
  return {
    kind: "value",
    value: { type: "FormattedNumber", basicValue: result.value, numberFormat: format },
  };
};
const layout = (): Map<string, DisplayCell> =>
  (shownLayout ??= layoutSheet({
    rows: ROWS,
    columns: COLUMNS,
    filled: sheet.filledCells(),
    result: shownResult,
  }));

host.attachEvaluation({ layout, result: (address) => evaluator.result(address) });
host.install(window as unknown as Record<string, unknown>);
window.__pcdPreview = createPreviewApi(host, evaluator, layout, activity);

function start(): void {
  const container = document.getElementById("sheet");
  if (!container) return;
  mountGrid(container, {
    sheet,
    layout,
    onResultsChange: (listener) => {
      evaluator.onResult(listener);
      host.onWorkbookChange(listener);
    },
    onWorkbookChange: (listener) => host.onWorkbookChange(listener),
    otherSheets: () =>
      host
        .sheetNames()
        .filter((name) => name !== SHEET_NAME)
        .map((name) => ({ name, rows: window.__pcdPreview.sheet(name) })),
    runAction: (id) => host.runAction(id),
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
