// Builds the component harness (the real task pane on the real engine, its refresh and
// schedule scripted: test/e2e/harness/component-harness.tsx) into a temporary
// folder: a small webpack build of its own, so it does not depend on the add-in's config.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import HtmlWebpackPlugin from "html-webpack-plugin";
import webpack from "webpack";
import { webpackCache } from "../../../scripts/webpack-cache";
import { swcTypescript } from "../../../swc.typescript";

const root = path.resolve(__dirname, "../../..");

export async function buildHarness(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), "pcd-harness-"));
  const compiler = webpack({
    mode: "development",
    context: root,
    devtool: false,
    // This file is the harness's webpack configuration.
    cache: webpackCache("harness", {}, [__filename]),
    // React's production code, as in the add-in's test build (test/support/shared-builds.ts):
    // its development checks double the time a page takes to open.
    optimization: { nodeEnv: "production" },
    entry: { harness: "./test/e2e/harness/component-harness.tsx" },
    output: { path: outDir, filename: "[name].js" },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: "swc-loader", options: swcTypescript() },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new HtmlWebpackPlugin({
        filename: "index.html",
        template: "./test/e2e/harness/component-harness.html",
      }),
    ],
  });
  await new Promise<void>((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) reject(error);
      else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve();
    });
  });
  return outDir;
}
