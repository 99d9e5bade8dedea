// W7's catalog-only cache file: a member's saved cache file (the runner's --cache, written by
// src/headless/cache-file.ts as {"version": 1, "entries": {storage key: value}}) without its
// series, so that a new runner starts holding the catalogs (Series Info, read at most daily)
// and the workbook's keys as a member's engine normally does, and takes every series from the
// gateway. Read as a document, not through the engine's code.
import { readFile, writeFile } from "node:fs/promises";

/** Storage keys of cached series (the engine's cache, one entry per request key). */
export const SERIES_ENTRY_PREFIX = "pcd:data:";
/** Storage keys of a product's Series Info. */
export const CATALOG_ENTRY_PREFIX = "pcd:catalog:";

export interface CatalogOnlyCache {
  /** The file's text without the series entries. */
  text: string;
  removedSeries: number;
  catalogs: number;
}

/**
 * The cache document without its series entries. Throws when the text is not a cache file,
 * holds no catalog (the runner would read Series Info, not only series, from the gateway) or
 * no series (there would be nothing to take from the gateway).
 */
export function catalogOnlyCache(text: string, name: string): CatalogOnlyCache {
  const content: unknown = JSON.parse(text);
  if (
    typeof content !== "object" ||
    content === null ||
    (content as { version?: unknown }).version !== 1 ||
    typeof (content as { entries?: unknown }).entries !== "object" ||
    (content as { entries?: unknown }).entries === null
  ) {
    throw new Error(`${name} is not a runner's cache file ({"version": 1, "entries": {...}})`);
  }
  const entries = Object.entries((content as { entries: Record<string, unknown> }).entries);
  const kept = entries.filter(([key]) => !key.startsWith(SERIES_ENTRY_PREFIX));
  const catalogs = kept.filter(([key]) => key.startsWith(CATALOG_ENTRY_PREFIX)).length;
  const removedSeries = entries.length - kept.length;
  if (catalogs === 0) throw new Error(`${name} holds no catalog (Series Info)`);
  if (removedSeries === 0) throw new Error(`${name} holds no series`);
  return {
    text: `${JSON.stringify({ ...content, entries: Object.fromEntries(kept) })}\n`,
    removedSeries,
    catalogs,
  };
}

/** Writes `to`: the cache file `from` without its series. */
export async function writeCatalogOnlyCache(from: string, to: string): Promise<CatalogOnlyCache> {
  const result = catalogOnlyCache(await readFile(from, "utf8"), from);
  await writeFile(to, result.text, "utf8");
  return result;
}
