// `npm run bench`: runs every workload, writes bench/results.json and the results section
// of BENCHMARKS.md. Options: see config.ts (e.g. `npm run bench -- --formulas 200 --sizes 100`).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildAddin } from "./addin";
import { runBenchmark } from "./benchmark";
import { parseBenchArgs } from "./config";
import { renderResults, spliceResults } from "./report";

const ROOT = path.join(__dirname, "..");

async function main(): Promise<void> {
  const config = parseBenchArgs(process.argv.slice(2), path.join(__dirname, "out"));
  const log = (level: string, message: string): void => {
    if (level !== "debug") process.stderr.write(`[${level}] ${message}\n`);
  };
  const results = await runBenchmark(config, {
    log: (level, message) => {
      // The engine's own info lines would drown the progress lines.
      if (level === "warn" || level === "error" || message.startsWith("W") || message.startsWith("Naive")) {
        log(level, message);
      }
    },
    buildAddin: config.addin ? () => buildAddin(ROOT, config.outDir, log) : undefined,
  });
  await writeFile(path.join(__dirname, "results.json"), `${JSON.stringify(results, null, 2)}\n`, "utf8");
  const markdownFile = path.join(ROOT, "BENCHMARKS.md");
  const document = await readFile(markdownFile, "utf8").catch(() => "# Benchmarks\n");
  await writeFile(markdownFile, spliceResults(document, renderResults(results)), "utf8");
  for (const check of results.targets) {
    log(
      check.met ? "info" : "warn",
      `${check.met ? "met   " : "MISSED"} ${check.workload}: ${check.target} (${check.value})`,
    );
  }
  log(
    "info",
    `Done in ${(results.durationMs / 1000).toFixed(1)} s: bench/results.json and BENCHMARKS.md written.`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm run bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
