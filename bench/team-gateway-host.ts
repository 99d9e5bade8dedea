// Starts W7's gateway in a child process (team-gateway-process.ts), asks it for its CPU and
// memory, and stops it.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { GatewayProcessUsage, GatewayUpstreamCalls, TeamGatewaySettings } from "./team-gateway-process";

export interface GatewayProcess {
  url: string;
  usage(): Promise<GatewayProcessUsage>;
  /** The calls the gateway has sent the service since it started. */
  upstreamCalls(): Promise<GatewayUpstreamCalls>;
  close(): Promise<void>;
}

const SCRIPT = path.join(__dirname, "team-gateway-process.ts");

export function startGatewayProcess(
  settings: TeamGatewaySettings,
  timeoutMs = 120_000,
): Promise<GatewayProcess> {
  return new Promise((resolve, reject) => {
    // With Node's flags as `npm run gateway` gives them (docs/gateway.md says why).
    const child = spawn(process.execPath, ["--liftoff-only", "--import", "tsx", SCRIPT], {
      cwd: path.join(__dirname, ".."),
      env: { ...process.env, BENCH_TEAM_GATEWAY: JSON.stringify(settings) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    let ready = false;
    const waiting: Array<(line: string) => void> = [];
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The gateway process was not ready within ${timeoutMs} ms: ${stderr.slice(-300)}`));
    }, timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (ready) {
        waiting.shift()?.(line);
        return;
      }
      ready = true;
      clearTimeout(timer);
      try {
        const { url } = JSON.parse(line) as { url: string };
        // Answers come in the order asked: one JSON line each.
        const ask = <T>(command: string): Promise<T> =>
          new Promise<T>((answer, fail) => {
            waiting.push((text) => {
              try {
                answer(JSON.parse(text) as T);
              } catch {
                fail(new Error(`The gateway process answered '${text.slice(0, 200)}' to '${command}'`));
              }
            });
            child.stdin.write(`${command}\n`);
          });
        resolve({
          url,
          usage: () => ask<GatewayProcessUsage>("usage"),
          upstreamCalls: () => ask<GatewayUpstreamCalls>("calls"),
          close: async () => {
            child.stdin.end();
            child.kill("SIGTERM");
            await exited;
          },
        });
      } catch {
        child.kill();
        reject(new Error(`The gateway process printed '${line.slice(0, 200)}' instead of its address`));
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start the gateway process: ${error.message}`));
    });
    child.on("exit", (code) => {
      if (!ready) {
        clearTimeout(timer);
        reject(new Error(`The gateway process exited with ${String(code)}: ${stderr.slice(-500)}`));
      }
    });
  });
}
