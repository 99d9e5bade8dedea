// The Office dialog API as the dialog sign-in uses it: Office.context.ui.displayDialogAsync,
// its message and event callbacks, and close.
import type { DialogOpener } from "./dialog-source";

export const officeDialogOpener: DialogOpener = {
  open(url, handlers) {
    return new Promise((resolve, reject) => {
      Office.context.ui.displayDialogAsync(url, { height: 60, width: 30 }, (result) => {
        if (result.status !== Office.AsyncResultStatus.Succeeded) {
          reject(new Error(result.error.message));
          return;
        }
        const dialog = result.value;
        dialog.addEventHandler(Office.EventType.DialogMessageReceived, (arg) => {
          if ("message" in arg) handlers.message({ message: arg.message, origin: arg.origin });
        });
        dialog.addEventHandler(Office.EventType.DialogEventReceived, (arg) => {
          if ("error" in arg) handlers.ended(arg.error);
        });
        resolve({ close: () => dialog.close() });
      });
    });
  },
};
