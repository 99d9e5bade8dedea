// W2's second half: the workbook recalculated in a new process that starts from the saved
// cache file, through the runner's public API (runWorkbook). Spawned by the benchmark;
// reads its settings from the environment (the password never appears in a command line)
// and prints one JSON document on stdout.
import { readFile } from "node:fs/promises";
import { runWorkbook } from "../src/headless";

export interface NewProcessReport {
  http: Record<string, number>;
  dataRequests: number;
  passMs: number;
  cpuMs: number;
  maxRssMiB: number;
  cellErrors: number;
  settled: boolean;
}

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "")
    throw new Error(`new-process-run needs the environment variable ${name}`);
  return value;
}

async function main(): Promise<void> {
  const formulas = (await readFile(setting("BENCH_FORMULAS_FILE"), "utf8"))
    .split("\n")
    .filter((line) => line !== "");
  // The benchmark pins the service's and the engine's clocks to one instant (see clock.ts).
  const clockOffsetMs = Number(setting("BENCH_CLOCK_OFFSET_MS"));
  const cpu = process.cpuUsage();
  const report = await runWorkbook({
    formulas,
    passes: 1,
    cacheFile: setting("BENCH_CACHE_FILE"),
    baseUrl: setting("PCD_BASE_URL"),
    authUrl: setting("PCD_AUTH_URL"),
    username: setting("PCD_USERNAME"),
    password: setting("PCD_PASSWORD"),
    clock: { now: () => Date.now() + clockOffsetMs },
    log: (level, message) => {
      if (level === "error" || level === "warn") process.stderr.write(`[${level}] ${message}\n`);
    },
  });
  const used = process.cpuUsage(cpu);
  const pass = report.passes[0];
  const result: NewProcessReport = {
    http: pass?.http ?? {},
    dataRequests: pass?.dataRequests ?? 0,
    passMs: pass?.ms ?? 0,
    cpuMs: (used.user + used.system) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    cellErrors: pass?.results.filter((result) => "error" in result).length ?? 0,
    settled: report.settled && report.signInError === undefined,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`new-process-run failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
