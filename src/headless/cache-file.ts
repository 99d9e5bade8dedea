// --cache FILE: the engine's whole storage (settings, catalog, cached series) as one JSON
// document, loaded before the engine starts and written back at the end. The engine never
// stores a password or token, so neither can reach the file.
//
// The file is data, not configuration: the service addresses and the environment (live or
// sandbox) in its settings entry are never used. The addresses decide where the password
// is sent, the environment whether the cells show live values, and a file may come from
// anyone (a colleague, a download); the runner takes both from its command line and
// environment variables only (run-workbook.ts says which it uses).
import { constants } from "node:fs";
import { access, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { KeyValueStorage, Logger } from "../core/environment";
import { SETTINGS_STORAGE_KEY } from "../core/settings";

/** The settings that say where requests go (and so where the password goes). */
export const ADDRESS_SETTINGS = ["baseUrl", "authUrl", "productPaths"] as const;
/** The settings a cache file never sets: the addresses, and live or sandbox values. */
export const COMMAND_LINE_SETTINGS = [...ADDRESS_SETTINGS, "environment"] as const;

export const CACHE_FILE_VERSION = 1;

interface CacheFileContent {
  version: number;
  entries: Record<string, unknown>;
}

/**
 * Checks, before the run makes any call, that the cache can be written at the end: an
 * existing FILE must be a readable and writable file, a new one needs a writable directory.
 * Otherwise a whole workbook would be fetched, and charged, before the save failed.
 * Throws an Error that names the path and the cause.
 */
export async function checkCacheFile(file: string): Promise<void> {
  const existing = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new Error(`Cannot use --cache ${file}: ${error.message}`);
  });
  if (existing?.isDirectory()) throw new Error(`Cannot use --cache ${file}: it is a directory, not a file.`);
  const target = existing ? file : path.dirname(path.resolve(file));
  const directory = existing ? undefined : await stat(target).catch(() => undefined);
  if (!existing && !directory?.isDirectory()) {
    throw new Error(`Cannot use --cache ${file}: the directory ${target} does not exist.`);
  }
  try {
    await access(target, existing ? constants.R_OK | constants.W_OK : constants.W_OK | constants.X_OK);
  } catch {
    const what = existing
      ? "the file is not readable and writable"
      : `the directory ${target} is not writable`;
    throw new Error(`Cannot use --cache ${file}: ${what}.`);
  }
}

/**
 * Copies the file's entries into storage, without the service addresses and environment of
 * its settings entry; a missing file is an empty cache.
 */
export async function loadCacheFile(file: string, storage: KeyValueStorage, log?: Logger): Promise<number> {
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
  for (const [key, value] of entries) {
    await storage.set(key, key === SETTINGS_STORAGE_KEY ? withoutAddresses(file, value, log) : value);
  }
  return entries.length;
}

/** A stored settings entry without the command line's settings (the rest, e.g. timeouts, stays). */
function withoutAddresses(file: string, value: unknown, log: Logger | undefined): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const kept: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [field, setting] of Object.entries(value)) {
    if ((COMMAND_LINE_SETTINGS as readonly string[]).includes(field)) ignored.push(field);
    else
      Object.defineProperty(kept, field, {
        value: setting,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  if (ignored.length > 0) {
    log?.(
      "info",
      `Cache file ${file}: its ${ignored.join(", ")} setting${ignored.length > 1 ? "s are" : " is"} not used; service addresses and live or sandbox come from the command line or the environment only.`,
    );
  }
  return kept;
}

export async function saveCacheFile(file: string, storage: KeyValueStorage): Promise<number> {
  const entries: Record<string, unknown> = {};
  for (const key of (await storage.keys()).sort()) entries[key] = await storage.get(key);
  const content: CacheFileContent = { version: CACHE_FILE_VERSION, entries };
  await writeFile(file, `${JSON.stringify(content, typedArraysAsLists)}\n`, "utf8");
  return Object.keys(entries).length;
}

/**
 * A typed array (a cached series' values, src/core/stored-points.ts) is written as a JSON
 * list of its numbers, which the cache reads back as it is: JSON.stringify alone would
 * write it as an object keyed by position, which no reader takes for a series.
 */
function typedArraysAsLists(_key: string, value: unknown): unknown {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
    ? Array.from(value as unknown as ArrayLike<number>)
    : value;
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
