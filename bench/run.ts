// `npm run bench`: runs every workload, writes bench/results.json and the results section
// of BENCHMARKS.md. Options: see config.ts (e.g. `npm run bench -- --formulas 200 --sizes 100`;
// `-- --only-memory` measures the memory budgets alone, `-- --only-team` W7 alone, into the
// last run's results). Exits with a failure when a memory budget is over its bound.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildAddin } from "./addin";
import { runBenchmark } from "./benchmark";
import { parseBenchArgs } from "./config";
import { exceededBudgets, withMemory } from "./memory-budget";
import { measureMemoryBudgets } from "./memory-budgets";
import type { BenchResults } from "./results";
import { renderResults, spliceResults } from "./report";
import { evaluateTargets } from "./targets";
import { runTeamWorkload } from "./team";
import { withTeam } from "./team-results";

const ROOT = path.join(__dirname, "..");

async function main(): Promise<void> {
  const config = parseBenchArgs(process.argv.slice(2), path.join(__dirname, "out"));
  const log = (level: string, message: string): void => {
    if (level !== "debug") process.stderr.write(`[${level}] ${message}\n`);
  };
  const resultsFile = path.join(__dirname, "results.json");
  const alone = config.onlyMemory || config.onlyTeam;
  const previous = alone ? await lastResults(resultsFile) : undefined;
  let results = previous
    ? config.onlyMemory
      ? withMemory(previous, await measureMemoryBudgets())
      : previous
    : await runBenchmark(config, {
        log: (level, message) => {
          // The engine's own info lines would drown the progress lines.
          if (
            level === "warn" ||
            level === "error" ||
            message.startsWith("W") ||
            message.startsWith("Naive")
          ) {
            log(level, message);
          }
        },
        buildAddin: config.addin ? () => buildAddin(ROOT, config.outDir, log) : undefined,
      });
  // W7 last: its members' runners, gateway and emulator are processes of their own.
  if (config.onlyTeam || (config.team && !alone && !config.onlyScale)) {
    const team = await runTeamWorkload(config, log);
    const workloads = team.workload === null ? [] : [team.workload];
    results = withTeam(results, workloads, evaluateTargets(workloads), team.failures);
  }
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`, "utf8");
  const markdownFile = path.join(ROOT, "BENCHMARKS.md");
  const document = await readFile(markdownFile, "utf8").catch(() => "# Benchmarks\n");
  await writeFile(markdownFile, spliceResults(document, renderResults(results)), "utf8");
  for (const check of results.targets) {
    log(
      check.met ? "info" : "warn",
      `${check.met ? "met   " : "MISSED"} ${check.workload}: ${check.target} (${check.value})`,
    );
  }
  const exceeded = exceededBudgets(results.memory ?? []);
  for (const figure of exceeded) {
    log(
      "error",
      `Memory budget exceeded: ${figure.title}: ${figure.median.toFixed(1)} > ${figure.bound} bytes per ${figure.unit}`,
    );
  }
  if (exceeded.length > 0) process.exitCode = 1;
  log(
    "info",
    `Done in ${(results.durationMs / 1000).toFixed(1)} s: bench/results.json and BENCHMARKS.md written.`,
  );
}

/** The last full run's results, which `--only-memory` and `--only-team` update. */
async function lastResults(file: string): Promise<BenchResults> {
  const text = await readFile(file, "utf8").catch(() => {
    throw new Error(
      `--only-memory and --only-team update ${file}, which is missing: run the whole benchmark once first.`,
    );
  });
  return JSON.parse(text) as BenchResults;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm run bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
