// The engine's public surface: what hosts, functions, task pane and commands import.
export { createEngine, type CreateEngineOptions } from "./engine";
export type * from "./engine-api";
export type * from "./environment";
export type * from "./model";
export { PRODUCTS } from "./model";
export { PcdError, isPcdError, type PcdErrorKind, type PcdErrorDetails } from "./errors";
export { CURRENCIES, UNITS, findReference, type ReferenceEntry } from "./reference";
export {
  createIdbStorage,
  createResilientStorage,
  MemoryStorage,
  DEFAULT_STORAGE_TIMEOUT_MS,
  type ResilientStorage,
  type ResilientStorageOptions,
} from "./storage";
export { realScheduler, type Scheduler } from "./scheduler";
