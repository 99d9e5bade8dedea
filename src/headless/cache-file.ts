// --cache FILE: the engine's whole storage (settings, catalog, cached series) as one JSON
// document, loaded before the engine starts and written back at the end. The engine never
// stores a password or token, so neither can reach the file.
import { readFile, writeFile } from "node:fs/promises";
import type { KeyValueStorage } from "../core/environment";

export const CACHE_FILE_VERSION = 1;

interface CacheFileContent {
  version: number;
  entries: Record<string, unknown>;
}

/** Copies the file's entries into storage; a missing file is an empty cache. */
export async function loadCacheFile(file: string, storage: KeyValueStorage): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw new Error(`Cannot read cache file ${file}: ${(error as Error).message}`);
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new Error(`Cache file ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!isCacheFileContent(content)) {
    throw new Error(`Cache file ${file} is not a PCD cache (expected {"version": 1, "entries": {...}}).`);
  }
  const entries = Object.entries(content.entries);
  for (const [key, value] of entries) await storage.set(key, value);
  return entries.length;
}

export async function saveCacheFile(file: string, storage: KeyValueStorage): Promise<number> {
  const entries: Record<string, unknown> = {};
  for (const key of (await storage.keys()).sort()) entries[key] = await storage.get(key);
  const content: CacheFileContent = { version: CACHE_FILE_VERSION, entries };
  await writeFile(file, `${JSON.stringify(content)}\n`, "utf8");
  return Object.keys(entries).length;
}

function isCacheFileContent(value: unknown): value is CacheFileContent {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { version?: unknown }).version === CACHE_FILE_VERSION &&
    typeof (value as { entries?: unknown }).entries === "object" &&
    (value as { entries?: unknown }).entries !== null
  );
}
