// The Office a dialog page sees in the preview (preview-dialog.html, opened as a popup by
// mock-dialog.ts): ready at once, and messageParent posting the message to the window that
// opened the dialog, on this page's own origin only.
import { DIALOG_MESSAGE_FIELD } from "./mock-dialog";

const ready = Promise.resolve({ host: "Excel", platform: "OfficeOnline" });

(window as unknown as Record<string, unknown>)["Office"] = {
  onReady: (callback?: (info: { host: string; platform: string }) => void) =>
    ready.then((info) => {
      callback?.(info);
      return info;
    }),
  context: {
    ui: {
      messageParent: (message: string): void => {
        window.opener?.postMessage({ [DIALOG_MESSAGE_FIELD]: message }, window.location.origin);
      },
    },
  },
};
