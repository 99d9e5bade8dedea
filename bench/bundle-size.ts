// Gzip size of the add-in's bundles from a production build (webpack, Office.js from the
// CDN so it is not counted): the functions runtime as Excel loads it at start (functions.js
// + runtime.js), the chunks it loads later on first use, and the task pane (taskpane.js and
// the chunks it loads).
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** The parts of webpack's stats JSON this module reads. */
export interface WebpackStats {
  entrypoints: Record<string, { chunks: (string | number)[] }>;
  chunks: { id: string | number; names: string[]; files: string[]; children: (string | number)[] }[];
}

/**
 * The JavaScript files an entry point loads: its initial chunks (the shared runtime chunk
 * only when asked) and every chunk they load later. The runtime chunk's own children are
 * the lazy chunks of every entry, so they are not followed.
 */
export function entryFiles(stats: WebpackStats, entry: string, includeRuntime: boolean): string[] {
  const entrypoint = stats.entrypoints[entry];
  if (entrypoint === undefined) throw new Error(`The build has no entry point '${entry}'`);
  const byId = new Map(stats.chunks.map((chunk) => [String(chunk.id), chunk]));
  const files = new Set<string>();
  const visited = new Set<string>();
  const visit = (id: string, initial: boolean): void => {
    if (visited.has(id)) return;
    visited.add(id);
    const chunk = byId.get(id);
    if (chunk === undefined) return;
    const isRuntime = initial && chunk.names.includes("runtime");
    if (isRuntime && !includeRuntime) return;
    for (const file of chunk.files) if (file.endsWith(".js")) files.add(file);
    if (!isRuntime) for (const child of chunk.children) visit(String(child), false);
  };
  for (const id of entrypoint.chunks) visit(String(id), true);
  return [...files].sort();
}

/** The JavaScript files of an entry point's initial chunks: what loads with its page. */
export function initialFiles(stats: WebpackStats, entry: string): string[] {
  const entrypoint = stats.entrypoints[entry];
  if (entrypoint === undefined) throw new Error(`The build has no entry point '${entry}'`);
  const ids = new Set(entrypoint.chunks.map(String));
  return stats.chunks
    .filter((chunk) => ids.has(String(chunk.id)))
    .flatMap((chunk) => chunk.files.filter((file) => file.endsWith(".js")))
    .sort();
}

export async function gzipBytes(directory: string, files: readonly string[]): Promise<number> {
  let total = 0;
  for (const file of files)
    total += gzipSync(await readFile(path.join(directory, file)), { level: 9 }).length;
  return total;
}

/** Runs webpack with the project's config into `outputDir`, writing stats to `statsFile`. */
export function runWebpack(
  root: string,
  mode: "production" | "development",
  outputDir: string,
  statsFile: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "node_modules/webpack-cli/bin/cli.js"),
        "--mode",
        mode,
        "--output-path",
        outputDir,
        "--json",
        statsFile,
      ],
      { cwd: root, env: { ...process.env, PCD_OFFICE_JS: "cdn" }, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => reject(new Error(`Cannot start webpack: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve();
      else
        reject(new Error(`webpack --mode ${mode} exited with ${String(code)}: ${stderr.trim().slice(-500)}`));
    });
  });
}

export async function readStats(statsFile: string): Promise<WebpackStats> {
  return JSON.parse(await readFile(statsFile, "utf8")) as WebpackStats;
}
