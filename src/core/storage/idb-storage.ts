// KeyValueStorage on IndexedDB through idb-keyval, in PCD's own database ("pcd"/"kv") so
// it never collides with other add-ins of the same origin. The store is opened on first
// use: where IndexedDB is missing, the failure arrives as a rejected promise that the
// resilient wrapper can turn into a memory fallback instead of a crash at load.
import { createStore, del, get, keys, set, setMany, type UseStore } from "idb-keyval";
import type { KeyValueStorage } from "../environment";

export const IDB_DATABASE = "pcd";
export const IDB_STORE = "kv";

export function createIdbStorage(database = IDB_DATABASE, storeName = IDB_STORE): KeyValueStorage {
  let store: UseStore | undefined;
  const open = (): UseStore => (store ??= createStore(database, storeName));
  return {
    persistent: true,
    get: async <T>(key: string) => get<T>(key, open()),
    set: async (key, value) => set(key, value, open()),
    setMany: async (entries) =>
      setMany(
        entries.map(([key, value]) => [key, value]),
        open(),
      ),
    delete: async (key) => del(key, open()),
    keys: async () => (await keys(open())).map(String),
  };
}
