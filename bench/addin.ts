// The add-in's own figures: gzip size of the functions runtime and the task pane bundles
// (production build), and page load to functions registered (development build's preview).
import { access } from "node:fs/promises";
import path from "node:path";
import { entryFiles, gzipBytes, readStats, runWebpack } from "./bundle-size";
import type { AddinFigures } from "./results";
import { measureStartup, startupUnavailable } from "./startup-time";

type Log = (level: string, message: string) => void;

/** Measures the built add-in (bundle sizes, start-up time). */
export type AddinMeasurement = () => Promise<AddinFigures>;

function reason(error: unknown): string {
  return `not measured: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Builds production and development side by side (the slow part, started early so it
 * overlaps the rate-limited naive baseline), then returns what measures the result.
 */
export async function buildAddin(root: string, outDir: string, log: Log): Promise<AddinMeasurement> {
  const production = path.join(outDir, "build-production");
  const development = path.join(outDir, "build-development");
  const productionStats = path.join(outDir, "stats-production.json");
  log("info", "Add-in: production and development builds");
  const [built, developed] = await Promise.allSettled([
    runWebpack(root, "production", production, productionStats),
    runWebpack(root, "development", development, path.join(outDir, "stats-development.json")),
  ]);
  return async () => {
    const figures: AddinFigures = {
      functionsGzipBytes: null,
      taskpaneGzipBytes: null,
      bundleFiles: { functions: [], taskpane: [] },
      bundleNote: "",
      startupMs: null,
      startupNote: "",
    };
    try {
      if (built.status === "rejected") throw built.reason;
      const stats = await readStats(productionStats);
      figures.bundleFiles.functions = entryFiles(stats, "functions", true);
      figures.bundleFiles.taskpane = entryFiles(stats, "taskpane", false);
      figures.functionsGzipBytes = await gzipBytes(production, figures.bundleFiles.functions);
      figures.taskpaneGzipBytes = await gzipBytes(production, figures.bundleFiles.taskpane);
      figures.bundleNote =
        "webpack production build, Office.js from the CDN (not counted), gzip level 9 per file";
    } catch (error) {
      figures.bundleNote = reason(error);
    }
    try {
      const unavailable = await startupUnavailable();
      if (unavailable !== null) throw new Error(unavailable);
      if (developed.status === "rejected") throw developed.reason;
      await access(path.join(development, "preview.html")).catch(() => {
        throw new Error("the development build has no preview.html");
      });
      log("info", "Add-in: start-up time of the preview page in headless Chromium");
      const startup = await measureStartup(development);
      figures.startupMs = startup.medianMs;
      figures.startupNote = `median of ${startup.samplesMs.length} loads (${startup.samplesMs.map((ms) => ms.toFixed(0)).join(", ")} ms): development build's preview page, a fresh browser context each, navigation start to the 5 functions associated`;
    } catch (error) {
      figures.startupNote = reason(error);
    }
    return figures;
  };
}
