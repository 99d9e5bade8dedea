// The production server as `npm run build` compiles it (tsconfig.server.json), built into a
// temporary folder, and what the built JavaScript requires.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

export const ROOT = path.resolve(__dirname, "../../..");

/** Compiles the server into `outDir` (what `npm run build:server` writes to dist-server/). */
export async function compileServer(outDir: string): Promise<void> {
  const tsc = path.join(ROOT, "node_modules/typescript7/bin/tsc");
  await promisify(execFile)(
    process.execPath,
    [tsc, "-p", "tsconfig.server.json", "--singleThreaded", "--outDir", outDir],
    { cwd: ROOT },
  );
}

function javaScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The packages the built code loads by bare name (no built-ins, no relative paths), sorted:
 * `require("…")`, and `import("…")`, which the compiler keeps for ECMAScript-only packages.
 */
export function requiredPackages(outDir: string): string[] {
  const names = new Set<string>();
  for (const file of javaScriptFiles(outDir)) {
    for (const match of readFileSync(file, "utf8").matchAll(/\b(?:require|import)\("([^"]+)"\)/g)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) continue;
      const parts = specifier.split("/");
      names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string));
    }
  }
  return [...names].sort();
}

export interface PackageManifest {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export function packageManifest(): PackageManifest {
  return JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageManifest;
}
