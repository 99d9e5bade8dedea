// Runs W5 in a new process (scale-run.ts) and reads its results, so that each size's peak
// memory is measured in a process that has run nothing but W5 (see scale-run.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import type { Logger, LogLevel } from "../src/core/environment";
import type { BenchConfig } from "./config";
import type { WorkloadResult } from "./results";

export interface ScaleProcessReport {
  workloads: WorkloadResult[];
  failures: Array<{ workload: string; error: string }>;
}

const SCRIPT = path.join(__dirname, "scale-run.ts");

export function runScaleInNewProcess(config: BenchConfig, log: Logger): Promise<ScaleProcessReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", SCRIPT], {
      cwd: path.join(__dirname, ".."),
      env: { ...process.env, BENCH_SCALE_CONFIG: JSON.stringify(config) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderr = (stderr + text).slice(-4000);
      for (const line of text.split("\n")) {
        const match = /^\[(warn|error|info)\] (.*)$/.exec(line);
        if (match) log(match[1] as LogLevel, `${match[2] as string} (own process)`);
      }
    });
    child.on("error", (error) => reject(new Error(`Cannot start W5's process: ${error.message}`)));
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`W5's process exited with ${String(code)}: ${stderr.trim().slice(-500)}`));
        return;
      }
      const last = Buffer.concat(stdout).toString("utf8").trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(last) as ScaleProcessReport);
      } catch {
        reject(new Error(`W5's process printed no report: ${last.slice(0, 300)} ${stderr.slice(-300)}`));
      }
    });
  });
}
