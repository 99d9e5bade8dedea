// Generated catalogs kept in a folder between processes, when the environment variable
// PCD_EMULATOR_CATALOG_CACHE names one (the test lanes do). Every test file is a process or a
// module registry of its own, and hundreds of them start emulators: generating a catalog costs
// about 0.15 CPU-seconds in a warm process and up to a second in a new one, reading it back
// about 0.01. A kept catalog is only as right as the generator that made it: the folder's name
// must change when the generator's code does (jest.config.js names it by a hash of
// src/emulator). A file that cannot be read back is generated again and replaced.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deserialize, serialize } from "node:v8";
import type { SeriesDefinition } from "./catalog";

export const CATALOG_CACHE_VARIABLE = "PCD_EMULATOR_CATALOG_CACHE";

function fileOf(folder: string, seed: number): string {
  return path.join(folder, `catalog-${seed}.v8`);
}

/** The seed's catalog as kept in the folder, or undefined when none is there or it is unreadable. */
export function readKeptCatalog(folder: string, seed: number): SeriesDefinition[] | undefined {
  let kept: unknown;
  try {
    kept = deserialize(readFileSync(fileOf(folder, seed)));
  } catch {
    return undefined;
  }
  return Array.isArray(kept) && kept.length > 0 ? (kept as SeriesDefinition[]) : undefined;
}

/**
 * Keeps the seed's catalog in the folder. Written to a file of its own, then renamed: processes
 * that keep the same catalog at once each replace the file whole, and a reader never sees half of
 * one. Failing to keep it costs only the next process's time, so errors are not raised.
 */
export function keepCatalog(folder: string, seed: number, series: readonly SeriesDefinition[]): void {
  const file = fileOf(folder, seed);
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(partial, serialize(series));
    renameSync(partial, file);
  } catch {
    // A read-only or full disk: the catalog is generated again next time.
    try {
      rmSync(partial, { force: true });
    } catch {
      // The folder itself could not be made: there is no partial file.
    }
  }
}
