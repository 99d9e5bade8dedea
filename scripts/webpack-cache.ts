// webpack's file-system cache for the builds tests make: one cache per kind of build and set
// of settings, in node_modules/.cache/pcd-webpack (a fresh clone starts without one). webpack
// rebuilds a module whose source file changed (by its modification time), and the configuration
// files named here (and any the caller adds) make it start over when they change.
import { createHash } from "node:crypto";
import path from "node:path";
import type { FileCacheOptions } from "webpack";

const root = path.resolve(__dirname, "..");

export function webpackCache(
  kind: string,
  settings: unknown,
  configFiles: readonly string[] = [],
): FileCacheOptions {
  const key = createHash("sha256").update(JSON.stringify(settings)).digest("hex").slice(0, 16);
  return {
    type: "filesystem",
    cacheDirectory: path.join(root, "node_modules", ".cache", "pcd-webpack"),
    name: `${kind}-${key}`,
    hashAlgorithm: "sha256",
    // Uncompressed: about 100 MB a build instead of 20 gzipped, but a build without a cache (a
    // fresh clone's four) measured 14 to 17 CPU-seconds instead of 18 to 21 (the development
    // build, three runs each); a build from the cache costs the same either way.
    compression: false,
    buildDependencies: {
      config: [
        path.join(root, "webpack.config.js"),
        path.join(root, "swc.typescript.js"),
        __filename,
        ...configFiles,
      ],
    },
  };
}
