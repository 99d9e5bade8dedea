// Office.context.ui.displayDialogAsync in the preview: the dialog opens as a popup window of
// the browser. Real Office.js cannot run outside Office, so the popup gets the preview's
// variant of the page (preview-dialog.html: the same dialog code under a small Office of the
// preview's, dialog-office.ts), whose messageParent posts to this window. Messages reach the
// add-in's handler with the popup's origin, as Office reports it; closing the popup is
// Office's event 12006.

export const PREVIEW_DIALOG_PAGE = "preview-dialog.html";
/** The field a preview dialog's postMessage carries its message in. */
export const DIALOG_MESSAGE_FIELD = "pcdDialogMessage";
export const DIALOG_EVENT_TYPES = {
  DialogMessageReceived: "dialogMessageReceived",
  DialogEventReceived: "dialogEventReceived",
} as const;
const CLOSED_BY_USER = 12006;

type DialogHandler = (arg: { message: string; origin: string } | { error: number }) => void;

interface DialogResult {
  status: "succeeded" | "failed";
  value?: { addEventHandler(type: string, handler: DialogHandler): void; close(): void };
  error?: { code: number; message: string };
}

/** The preview page of a dialog address: dialog.html becomes preview-dialog.html, the query kept. */
export function previewDialogUrl(url: string, base: string): string {
  const target = new URL(url, base);
  target.pathname = target.pathname.replace(/[^/]*$/, (page) =>
    page === "dialog.html" ? PREVIEW_DIALOG_PAGE : page,
  );
  return target.toString();
}

export function displayPreviewDialog(
  url: string,
  _options: unknown,
  callback: (result: DialogResult) => void,
): void {
  const popup = window.open(
    previewDialogUrl(url, window.location.href),
    "pcd-dialog",
    "popup,width=480,height=640",
  );
  if (popup === null) {
    callback({
      status: "failed",
      error: { code: 12009, message: "The browser blocked the dialog's window." },
    });
    return;
  }
  const handlers = new Map<string, DialogHandler>();
  const onMessage = (event: MessageEvent): void => {
    if (event.source !== popup) return;
    const data: unknown = event.data;
    if (typeof data !== "object" || data === null) return;
    const message = (data as Record<string, unknown>)[DIALOG_MESSAGE_FIELD];
    if (typeof message !== "string") return;
    handlers.get(DIALOG_EVENT_TYPES.DialogMessageReceived)?.({ message, origin: event.origin });
  };
  const stop = (): void => {
    clearInterval(watch);
    window.removeEventListener("message", onMessage);
  };
  // The browser says nothing when a popup is closed: look.
  const watch = setInterval(() => {
    if (!popup.closed) return;
    stop();
    handlers.get(DIALOG_EVENT_TYPES.DialogEventReceived)?.({ error: CLOSED_BY_USER });
  }, 200);
  window.addEventListener("message", onMessage);
  callback({
    status: "succeeded",
    value: {
      addEventHandler: (type, handler) => handlers.set(type, handler),
      close: () => {
        stop();
        popup.close();
      },
    },
  });
}
