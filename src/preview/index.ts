// Entry of the preview page (development builds only). Runs before the add-in's bundles:
// it installs the mock Office host, so the real functions register with it, the ribbon
// command associates with it and the task pane writes through it; then it draws the grid.
import { CellEvaluator } from "./cell-evaluator";
import { mountGrid } from "./grid";
import { PreviewHost } from "./mock-office";
import { createPreviewApi, type PcdPreviewApi } from "./preview-api";
import { layoutSheet } from "./sheet-layout";
import { SheetModel } from "./sheet-model";

declare global {
  interface Window {
    __pcdPreview: PcdPreviewApi;
  }
}

// Enough rows for a whole monthly table (2007 onwards, with forecasts) to spill.
const ROWS = 300;
const COLUMNS = 8;

const sheet = new SheetModel(ROWS, COLUMNS);
const host = new PreviewHost(sheet, () => evaluator.recalculateAll());
const evaluator = new CellEvaluator(sheet, (name) => host.record.functions.get(name));
sheet.subscribe((event) => {
  if (event.type === "cell") evaluator.evaluate(event.address);
});
const layout = () =>
  layoutSheet({
    rows: ROWS,
    columns: COLUMNS,
    filled: sheet.filledCells(),
    result: (address) => evaluator.result(address),
  });

host.install(window as unknown as Record<string, unknown>);
window.__pcdPreview = createPreviewApi(host, evaluator, layout);

function start(): void {
  const container = document.getElementById("sheet");
  if (!container) return;
  mountGrid(container, {
    sheet,
    layout,
    onResultsChange: (listener) => evaluator.onResult(listener),
    runAction: (id) => host.runAction(id),
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
