// Ribbon actions and keyboard shortcuts. "Series" is a ShowTaskpane action in the manifest
// (no code); "Refresh all" runs here, in the shared runtime, and shows the task pane so the
// user sees its progress and summary. event.completed() is always called: Office waits for
// it. The shortcut that opens the pane (assets/shortcuts.json) runs showPaneShortcut.
import { getRefreshRunner } from "../host/browser-services";

export async function refreshAllCommand(event: Office.AddinCommands.Event): Promise<void> {
  try {
    await Office.addin.showAsTaskpane().catch(() => undefined);
    await getRefreshRunner().run();
  } finally {
    event.completed();
  }
}

/** Keyboard shortcut action "showPcdPane": Office calls it without an event. */
export async function showPaneShortcut(): Promise<void> {
  await Office.addin.showAsTaskpane();
}

void Office.onReady(() => {
  // Office.actions exists only in a host with the shared runtime (not in the preview page).
  Office.actions?.associate("refreshAll", refreshAllCommand);
  Office.actions?.associate("showPcdPane", showPaneShortcut);
});
