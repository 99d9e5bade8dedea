// What a bundle is made of: the minified bytes of each emitted JavaScript file credited to
// the source module they came from, read from the file's source map. webpack's stats give
// module sizes before minification and before tree shaking (a library of which a few
// functions ship counts whole there), so they would point at the wrong modules.
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The parts of a version 3 source map this module reads. */
export interface SourceMapLike {
  sources: string[];
  mappings: string;
}

/** A module (a source file, or a node_modules package as one) and its minified bytes. */
export interface ModuleSize {
  name: string;
  bytes: number;
}

/** Bytes not covered by any mapping: webpack's own glue between modules. */
export const UNMAPPED = "(webpack glue)";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUE = new Map([...BASE64].map((character, value) => [character, value]));

/** One segment's fields (generated column, source index, ...), each a base64 VLQ number. */
function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = BASE64_VALUE.get(character);
    if (digit === undefined) throw new Error(`Source map mappings carry '${character}', not base64`);
    value += (digit & 31) * 2 ** shift;
    shift += 5;
    if ((digit & 32) === 0) {
      values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/**
 * The name a source path is counted under: a node_modules package as a whole (scoped
 * packages with their scope), webpack's runtime as one, a project file by its path.
 */
export function moduleName(source: string): string {
  const packagePath = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (packagePath?.[1] !== undefined) return packagePath[1];
  const withoutScheme = source.replace(/^webpack:\/\/[^/]*\//, "");
  if (withoutScheme.startsWith("webpack/")) return "(webpack runtime)";
  return withoutScheme.replace(/^(?:\.\.?\/)+/, "");
}

/** The UTF-8 bytes of `code` credited to each module, by the source map's segments. */
export function moduleBytes(code: string, map: SourceMapLike): Map<string, number> {
  const sizes = new Map<string, number>();
  const credit = (name: string, text: string): void => {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > 0) sizes.set(name, (sizes.get(name) ?? 0) + bytes);
  };
  const lines = code.split("\n");
  const mappedLines = map.mappings.split(";");
  // The source index is relative to the previous segment's, across lines.
  let sourceIndex = 0;
  lines.forEach((line, lineIndex) => {
    // Line breaks count as glue, so the sizes add up to the file's size.
    if (lineIndex < lines.length - 1) credit(UNMAPPED, "\n");
    const segments = (mappedLines[lineIndex] ?? "").split(",").filter((segment) => segment !== "");
    let column = 0;
    let owner: string = UNMAPPED;
    let start = 0;
    for (const segment of segments) {
      const [columnDelta = 0, sourceDelta] = decodeSegment(segment);
      column += columnDelta;
      credit(owner, line.slice(start, column));
      start = column;
      if (sourceDelta === undefined) owner = UNMAPPED;
      else {
        sourceIndex += sourceDelta;
        const source = map.sources[sourceIndex];
        owner = source === undefined ? UNMAPPED : moduleName(source);
      }
    }
    credit(owner, line.slice(start));
  });
  return sizes;
}

/** The `count` largest modules, largest first (ties by name), and the total of all of them. */
export function largestModules(
  sizes: Iterable<readonly [string, number]>,
  count: number,
): { modules: ModuleSize[]; totalBytes: number } {
  const merged = new Map<string, number>();
  for (const [name, bytes] of sizes) merged.set(name, (merged.get(name) ?? 0) + bytes);
  const modules = [...merged]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
  return {
    modules: modules.slice(0, count),
    totalBytes: modules.reduce((total, module) => total + module.bytes, 0),
  };
}

/** Reads each emitted file and its `.map` from `directory` and credits its bytes to modules. */
export async function analyseFiles(
  directory: string,
  files: readonly string[],
): Promise<Array<[string, number]>> {
  const sizes: Array<[string, number]> = [];
  for (const file of files) {
    const code = await readFile(path.join(directory, file), "utf8");
    const mapText = await readFile(path.join(directory, `${file}.map`), "utf8").catch(() => {
      throw new Error(`${file} has no source map (${file}.map): the build must emit source maps`);
    });
    sizes.push(...moduleBytes(code, JSON.parse(mapText) as SourceMapLike));
  }
  return sizes;
}
