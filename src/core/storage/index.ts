export { createIdbStorage, IDB_DATABASE, IDB_STORE } from "./idb-storage";
export { MemoryStorage } from "./memory-storage";
export {
  createResilientStorage,
  DEFAULT_STORAGE_TIMEOUT_MS,
  storageFallbackReason,
  type ResilientStorage,
  type ResilientStorageOptions,
} from "./resilient-storage";
