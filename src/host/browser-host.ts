// Loaded first into the shared runtime (before the custom functions): tells the engine
// holder how to build the browser engine: the page's fetch, IndexedDB (falling back to
// memory when it fails or hangs) and the real clock.
import { createEngine, createIdbStorage, createResilientStorage } from "../core";
import type { Logger } from "../core/environment";
import { setEngineFactory } from "./shared-engine";

// Warnings and errors only: the console of an add-in is not for users, and nothing
// logged here may carry a token or password (the engine never passes them to the log).
const consoleLogger: Logger = (level, message) => {
  if (level === "error") console.error(`PCD: ${message}`);
  else if (level === "warn") console.warn(`PCD: ${message}`);
};

setEngineFactory(() =>
  createEngine({
    fetch: (input, init) => fetch(input, init),
    storage: createResilientStorage(createIdbStorage()),
    clock: { now: () => Date.now() },
    log: consoleLogger,
  }),
);
