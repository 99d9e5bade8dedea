// The add-in's own figures: gzip size of the functions runtime and the task pane bundles
// (production build), and page load to functions registered (development build's preview).
import { access } from "node:fs/promises";
import path from "node:path";
import { analyseFiles, largestModules } from "./bundle-analysis";
import { entryFiles, gzipBytes, initialFiles, readStats, runWebpack } from "./bundle-size";
import type { AddinFigures } from "./results";
import { measureStartup, startupUnavailable } from "./startup-time";

type Log = (level: string, message: string) => void;

/** How many of the functions runtime's largest modules the results list. */
export const LARGEST_MODULES = 8;

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
      functionsLazyGzipBytes: null,
      taskpaneGzipBytes: null,
      bundleFiles: { functions: [], functionsLazy: [], taskpane: [] },
      functionsModules: [],
      functionsMinifiedBytes: null,
      bundleNote: "",
      startupMs: null,
      startupNote: "",
    };
    try {
      if (built.status === "rejected") throw built.reason;
      const stats = await readStats(productionStats);
      const functions = initialFiles(stats, "functions");
      figures.bundleFiles.functions = functions;
      figures.bundleFiles.functionsLazy = entryFiles(stats, "functions", true).filter(
        (file) => !functions.includes(file),
      );
      figures.bundleFiles.taskpane = entryFiles(stats, "taskpane", false);
      figures.functionsGzipBytes = await gzipBytes(production, functions);
      figures.functionsLazyGzipBytes = await gzipBytes(production, figures.bundleFiles.functionsLazy);
      figures.taskpaneGzipBytes = await gzipBytes(production, figures.bundleFiles.taskpane);
      const largest = largestModules(await analyseFiles(production, functions), LARGEST_MODULES);
      figures.functionsModules = largest.modules;
      figures.functionsMinifiedBytes = largest.totalBytes;
      log("info", `Add-in: functions runtime at start, largest of ${largest.totalBytes} minified bytes:`);
      for (const module of largest.modules)
        log("info", `  ${String(module.bytes).padStart(7)}  ${module.name}`);
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
