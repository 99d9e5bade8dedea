// Ribbon actions and keyboard shortcuts. "Series" is a ShowTaskpane action in the manifest
// (no code); "Refresh all" and the Freeze menu's items run here, in the shared runtime, and
// show the task pane so the user sees progress and outcome (Freeze names the cells it
// refused, Restore the cells edited since the freeze). event.completed() is always called: Office waits for
// it. The shortcut that opens the pane (assets/shortcuts.json) runs showPaneShortcut.
import { getRefreshRunner, getWorkbookActions } from "../host/browser-services";
import type { WorkbookAction } from "../workbook/workbook-actions";

export async function refreshAllCommand(event: Office.AddinCommands.Event): Promise<void> {
  try {
    await Office.addin.showAsTaskpane().catch(() => undefined);
    // The ribbon shows no cost: the refresh keeps within a share of what remains.
    await getRefreshRunner().run({ unreviewed: true });
  } finally {
    event.completed();
  }
}

/** A Freeze menu item: runs the action (the pane's Usage tab shows its outcome). */
function workbookCommand(action: WorkbookAction) {
  return async (event: Office.AddinCommands.Event): Promise<void> => {
    try {
      await Office.addin.showAsTaskpane().catch(() => undefined);
      await getWorkbookActions().run(action);
    } finally {
      event.completed();
    }
  };
}

export const freezeSelectionCommand = workbookCommand("freezeSelection");
export const freezeSheetCommand = workbookCommand("freezeSheet");
export const freezeWorkbookCommand = workbookCommand("freezeWorkbook");
export const restoreAllCommand = workbookCommand("restoreAll");
export const restoreSelectionCommand = workbookCommand("restoreSelection");

/** Keyboard shortcut action "showPcdPane": Office calls it without an event. */
export async function showPaneShortcut(): Promise<void> {
  await Office.addin.showAsTaskpane();
}

void Office.onReady(() => {
  // Office.actions exists only in a host with the shared runtime (not in the preview page).
  Office.actions?.associate("refreshAll", refreshAllCommand);
  Office.actions?.associate("showPcdPane", showPaneShortcut);
  Office.actions?.associate("freezeSelection", freezeSelectionCommand);
  Office.actions?.associate("freezeSheet", freezeSheetCommand);
  Office.actions?.associate("freezeWorkbook", freezeWorkbookCommand);
  Office.actions?.associate("restoreAll", restoreAllCommand);
  Office.actions?.associate("restoreSelection", restoreSelectionCommand);
});
