// Spawns new-process-run.ts (a new Node process through tsx) and reads its report.
import { spawn } from "node:child_process";
import path from "node:path";
import type { NewProcessReport } from "./new-process-run";
import type { ServiceAddress } from "./service";

export interface NewProcessRequest {
  formulasFile: string;
  cacheFile: string;
  service: ServiceAddress;
  clockOffsetMs: number;
  timeoutMs: number;
}

const SCRIPT = path.join(__dirname, "new-process-run.ts");

export function runInNewProcess(request: NewProcessRequest): Promise<NewProcessReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      cwd: path.join(__dirname, ".."),
      env: {
        ...process.env,
        BENCH_FORMULAS_FILE: request.formulasFile,
        BENCH_CACHE_FILE: request.cacheFile,
        BENCH_CLOCK_OFFSET_MS: String(request.clockOffsetMs),
        PCD_BASE_URL: request.service.baseUrl,
        PCD_AUTH_URL: request.service.authUrl,
        PCD_USERNAME: request.service.username,
        PCD_PASSWORD: request.service.password,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), request.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start the new-process run: ${error.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`The new-process run exited with ${String(code)}: ${stderr.trim().slice(-500)}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as NewProcessReport);
      } catch {
        reject(
          new Error(`The new-process run printed no report: ${stdout.slice(0, 300)} ${stderr.slice(-300)}`),
        );
      }
    });
  });
}
