// Starts the emulator in a child process on 127.0.0.1 (ephemeral port) and stops it.
import { spawn } from "node:child_process";
import path from "node:path";
import type { EmulatorOptions } from "../src/emulator";
import type { pinClock } from "./clock";
import type { BenchConfig } from "./config";

export interface EmulatorProcess {
  url: string;
  username: string;
  password: string;
  close(): Promise<void>;
}

const SCRIPT = path.join(__dirname, "emulator-process.ts");

export function startEmulatorProcess(
  options: Partial<EmulatorOptions>,
  timeoutMs = 60_000,
): Promise<EmulatorProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
      cwd: path.join(__dirname, ".."),
      env: {
        ...process.env,
        BENCH_EMULATOR_OPTIONS: JSON.stringify({ ...options, port: 0, host: "127.0.0.1" }),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let ready = false;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The emulator process was not ready within ${timeoutMs} ms: ${stderr.slice(-300)}`));
    }, timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n")[0];
      if (ready || !stdout.includes("\n") || line === undefined) return;
      ready = true;
      clearTimeout(timer);
      try {
        const address = JSON.parse(line) as { url: string; username: string; password: string };
        resolve({
          ...address,
          close: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
      } catch {
        child.kill();
        reject(new Error(`The emulator process printed '${line.slice(0, 200)}' instead of its address`));
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start the emulator process: ${error.message}`));
    });
    child.on("exit", (code) => {
      if (!ready) {
        clearTimeout(timer);
        reject(new Error(`The emulator process exited with ${String(code)}: ${stderr.slice(-500)}`));
      }
    });
  });
}

/** Large enough that no allowance or quota shapes the figures: they are not the subject here. */
const UNLIMITED = 10_000_000;

/** The service of a run: the emulator in the run's shape, on the pinned clock, no limits in the way. */
export function startBenchEmulator(
  config: BenchConfig,
  clock: ReturnType<typeof pinClock>,
): Promise<EmulatorProcess> {
  return startEmulatorProcess({
    shape: config.shape,
    seed: config.seed,
    now: clock.start,
    latencyMs: config.latencyMs,
    latencyPerCodeMs: config.latencyPerCodeMs,
    allowance: UNLIMITED,
    dailyQuota: UNLIMITED,
    seriesInfoMonthlyQuota: UNLIMITED,
    downtime: false,
  });
}
