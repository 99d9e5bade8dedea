// Builds the add-in once per test file the way `npm start` does (webpack development
// build, local Office.js copy), into a temporary folder that the caller removes.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import webpack, { type Configuration } from "webpack";

type ConfigFactory = (env: unknown, argv: { mode: string }) => Configuration;

const root = path.resolve(__dirname, "../../..");

export async function buildAddin(): Promise<string> {
  const saved = process.env.PCD_OFFICE_JS;
  process.env.PCD_OFFICE_JS = "local";
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const configFactory = require(path.join(root, "webpack.config.js")) as ConfigFactory;
    const config = configFactory({}, { mode: "development" });
    const outDir = mkdtempSync(path.join(tmpdir(), "pcd-e2e-"));
    config.output = { ...config.output, path: outDir };
    config.context = root;
    // Source maps and the Office.js copy are not needed by the preview page: faster builds.
    config.devtool = false;
    await new Promise<void>((resolve, reject) => {
      webpack(config, (error, stats) => {
        if (error) reject(error);
        else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
        else resolve();
      });
    });
    return outDir;
  } finally {
    if (saved === undefined) delete process.env.PCD_OFFICE_JS;
    else process.env.PCD_OFFICE_JS = saved;
  }
}
