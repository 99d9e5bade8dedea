// Spawns a W7 member's runner (team-member-run.ts), waits until it has loaded, starts it on
// request, and reads its report.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { MemberReport, TeamMemberSettings } from "./team-member-run";

export interface MemberProcess {
  /** Settles when the runner has loaded and waits for go(). */
  ready: Promise<void>;
  go(): void;
  report: Promise<MemberReport>;
}

const SCRIPT = path.join(__dirname, "team-member-run.ts");

export function spawnMember(settings: TeamMemberSettings, password: string): MemberProcess {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
    cwd: path.join(__dirname, ".."),
    env: { ...process.env, BENCH_TEAM_MEMBER: JSON.stringify(settings), PCD_PASSWORD: password },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines: string[] = [];
  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (lines.length === 0) markReady();
    lines.push(line);
  });
  // Loading, waiting for the others and the run itself, with room for a loaded machine.
  const timer = setTimeout(() => child.kill(), settings.timeoutMs + 120_000);
  const report = new Promise<MemberReport>((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      const failure = new Error(`Cannot start ${settings.username}'s runner: ${error.message}`);
      failReady(failure);
      reject(failure);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const failure = new Error(
        `${settings.username}'s runner exited with ${String(code)} without a report: ${stderr.trim().slice(-500)}`,
      );
      failReady(failure);
      if (code !== 0 || lines.length < 2) {
        reject(failure);
        return;
      }
      try {
        resolve(JSON.parse(lines[lines.length - 1] ?? "") as MemberReport);
      } catch {
        reject(failure);
      }
    });
  });
  // A runner that fails before its report is awaited must not be an unhandled rejection.
  report.catch(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    go: () => {
      child.stdin.end("go\n");
    },
    report,
  };
}
