// W5 in a process of its own: spawned by the full benchmark (scale-process.ts), it runs the
// scale sizes alone (the same code as `--only-scale`) and prints their results as one JSON
// line on stdout; progress goes to stderr. In the benchmark's own process, W5 started after
// the naive baseline, the add-in's builds and W1-W6, whose memory the process kept: the 1,000
// formula size then "grew" by nothing, and every size's growth was understated.
import { runBenchmark } from "./benchmark";
import type { BenchConfig } from "./config";

async function main(): Promise<void> {
  const text = process.env.BENCH_SCALE_CONFIG;
  if (text === undefined || text === "") throw new Error("scale-run needs BENCH_SCALE_CONFIG");
  const config = JSON.parse(text) as BenchConfig;
  const results = await runBenchmark(
    { ...config, onlyScale: true, addin: false, naiveSample: 0, compareShapes: false },
    {
      log: (level, message) => {
        if (level === "warn" || level === "error" || message.startsWith("W")) {
          process.stderr.write(`[${level}] ${message}\n`);
        }
      },
    },
  );
  process.stdout.write(`${JSON.stringify({ workloads: results.workloads, failures: results.failures })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `scale-run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
