// Loaded first into the shared runtime (before the custom functions): tells the engine
// holder how to build the browser engine: the page's fetch, IndexedDB (falling back to
// memory when it fails or hangs), the real clock and the addresses the bundle was built for.
import { createEngine, createIdbStorage, createResilientStorage } from "../core";
import type { Logger } from "../core/environment";
import { buildTimeAddresses } from "./build-addresses";
import { createDocumentSettingsStorage, documentSettings } from "../workbook/document-settings-storage";
import { explainBlockedFetch } from "./blocked-fetch";
import { setEngineFactory } from "./shared-engine";
import { readWorkbookCodes, reusedFor } from "./workbook-codes";

/** How long one read of the workbook's codes serves the cost preview's re-plans. */
const WORKBOOK_CODES_MAX_AGE_MS = 60_000;

// Warnings and errors only: the console of an add-in is not for users, and nothing
// logged here may carry a token or password (the engine never passes them to the log).
const consoleLogger: Logger = (level, message) => {
  if (level === "error") console.error(`PCD: ${message}`);
  else if (level === "warn") console.warn(`PCD: ${message}`);
};

setEngineFactory(() => {
  const storage = createResilientStorage(createIdbStorage());
  // The workbook's request keys live in the workbook itself when the host offers document
  // settings; a failing or hanging save falls back to memory (the IndexedDB copy is not
  // used: it is shared by every workbook on this machine).
  const settings = documentSettings();
  const workbookStorage = settings
    ? createResilientStorage(createDocumentSettingsStorage(settings), { label: "the workbook's settings" })
    : undefined;
  return createEngine(
    {
      fetch: explainBlockedFetch((input, init) => fetch(input, init), location.origin),
      storage,
      workbookStorage,
      // Only in a workbook: the saved key list is checked against what its cells name.
      workbookCodes: settings ? reusedFor(readWorkbookCodes, WORKBOOK_CODES_MAX_AGE_MS) : undefined,
      clock: { now: () => Date.now() },
      log: consoleLogger,
    },
    // The addresses the bundle was built for; stored settings (the user's) win.
    { defaults: buildTimeAddresses() },
  );
});
