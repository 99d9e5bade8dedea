// Runtime-wide services of the add-in that are not the engine itself.
import { excelWorkbookHost } from "../workbook/excel-workbook-host";
import { browserSealKeyStore, createRecordSeal } from "../workbook/record-seal";
import { WorkbookActions } from "../workbook/workbook-actions";
import { RefreshRunner } from "./refresh-runner";
import { getEngine } from "./shared-engine";

let refreshRunner: RefreshRunner | undefined;

export function getRefreshRunner(): RefreshRunner {
  refreshRunner ??= new RefreshRunner(getEngine);
  return refreshRunner;
}

let workbookActions: WorkbookActions | undefined;

/** Freeze, Restore and the release report: one runner for the ribbon menu and the pane. */
export function getWorkbookActions(): WorkbookActions {
  workbookActions ??= new WorkbookActions(
    () => excelWorkbookHost,
    getEngine,
    createRecordSeal(browserSealKeyStore()),
  );
  return workbookActions;
}
