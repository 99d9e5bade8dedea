// Builds the add-in in-process with the project's webpack config into a new temporary
// folder (the caller removes it): the build tests and the browser tests use it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import webpack, { type Configuration } from "webpack";
import { webpackCache } from "./webpack-cache";

type ConfigFactory = (env: unknown, argv: { mode: string }) => Configuration;

const root = path.resolve(__dirname, "..");

export interface BuildOptions {
  mode: "production" | "development";
  /** Build settings (PCD_ADDIN_URL, PCD_OFFICE_JS), set only for this build. */
  env?: Record<string, string>;
  /**
   * What names the build's webpack cache, kept between runs in node_modules/.cache (default:
   * the mode and the settings). A build whose settings change every run (a test server's
   * address) names one of its own here, so that caches do not pile up: webpack rebuilds the
   * modules that read a build setting whose value changed.
   */
  cacheKey?: unknown;
}

export async function buildAddin({ mode, env = {}, cacheKey }: BuildOptions): Promise<string> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const configFactory = require(path.join(root, "webpack.config.js")) as ConfigFactory;
    const config = configFactory({}, { mode });
    const outDir = mkdtempSync(path.join(tmpdir(), "pcd-build-"));
    config.output = { ...config.output, path: outDir };
    config.context = root;
    // Source maps are not needed by tests: faster builds.
    config.devtool = false;
    config.cache = webpackCache("addin", cacheKey ?? { mode, env });
    await new Promise<void>((resolve, reject) => {
      webpack(config, (error, stats) => {
        if (error) reject(error);
        else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
        else resolve();
      });
    });
    return outDir;
  } finally {
    // Put back only what this build set (replacing process.env itself would break Node's env).
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
