// One W7 member: their workbook through the gateway with the runner's public API (runWorkbook),
// in a process of its own (the runner keeps one engine per process). Spawned by
// team-member-host.ts with its settings as JSON in BENCH_TEAM_MEMBER and the password in
// PCD_PASSWORD (never on a command line). Loads everything, prints {"ready":true}, and starts
// when a "go" line arrives on stdin, so that every member starts at the same moment; prints
// its report as one JSON line at the end.
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { runWorkbook } from "../src/headless";
import type { FetchLike } from "../src/core/environment";
import type { CallCounts } from "./bounds";

export interface TeamMemberSettings {
  formulasFile: string;
  /** The runner's --cache file: loaded at start when present, saved at the end. */
  cacheFile: string | null;
  passes: number;
  clockOffsetMs: number;
  gatewayUrl: string;
  username: string;
  timeoutMs: number;
}

export interface MemberPass {
  ms: number;
  /** Date.now() when the pass ended (the runs share the machine's clock). */
  endedAt: number;
  http: CallCounts;
  dataRequests: number;
  cellErrors: number;
  /** The first cell that ended in an error, for the notes. */
  firstError: string | null;
}

export interface MemberReport {
  member: string;
  /** Date.now() when the run started (after "go"). */
  startedAt: number;
  signInMs: number;
  signInError: string | null;
  passes: MemberPass[];
  /** The data calls' paths under the gateway (/api/...), each once, in the order first sent. */
  dataPaths: string[];
  /** Date.now() when the first data call left (null: none). */
  firstDataCallAt: number | null;
  settled: boolean;
  cpuMs: number;
  maxRssMiB: number;
}

function settingsFromEnvironment(): { settings: TeamMemberSettings; password: string } {
  const text = process.env.BENCH_TEAM_MEMBER;
  const password = process.env.PCD_PASSWORD;
  if (text === undefined || text === "" || password === undefined || password === "") {
    throw new Error("team-member-run needs BENCH_TEAM_MEMBER and PCD_PASSWORD");
  }
  return { settings: JSON.parse(text) as TeamMemberSettings, password };
}

const DATA_PATH = /\/v1\/export\/series(?:_hist)?\/[^/]+$/;

function waitForGo(): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin });
    lines.on("line", (line) => {
      if (line.trim() === "go") {
        resolve();
        lines.close();
      }
    });
    lines.on("close", () => reject(new Error("stdin closed before 'go'")));
  });
}

async function main(): Promise<void> {
  const { settings, password } = settingsFromEnvironment();
  const formulas = (await readFile(settings.formulasFile, "utf8")).split("\n").filter((line) => line !== "");
  const dataPaths = new Set<string>();
  let firstDataCallAt: number | null = null;
  const recording: FetchLike = (input, init) => {
    const url = new URL(input);
    if (DATA_PATH.test(url.pathname)) {
      firstDataCallAt ??= Date.now();
      dataPaths.add(`${url.pathname}${url.search}`);
    }
    return fetch(input, init);
  };
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  await waitForGo();

  const startedAt = Date.now();
  const cpu = process.cpuUsage();
  const passes: MemberPass[] = [];
  const report = await runWorkbook({
    formulas,
    passes: settings.passes,
    cacheFile: settings.cacheFile ?? undefined,
    baseUrl: `${settings.gatewayUrl}/api`,
    authUrl: `${settings.gatewayUrl}/auth`,
    username: settings.username,
    password,
    fetch: recording,
    timeoutMs: settings.timeoutMs,
    clock: { now: () => Date.now() + settings.clockOffsetMs },
    log: (level, message) => {
      if (level === "error" || level === "warn") process.stderr.write(`[${level}] ${message}\n`);
    },
    onPass: (pass) => {
      const errors = pass.results.filter((result) => "error" in result);
      passes.push({
        ms: pass.ms,
        endedAt: Date.now(),
        http: pass.http,
        dataRequests: pass.dataRequests,
        cellErrors: errors.length,
        firstError: errors.length > 0 ? JSON.stringify(errors[0]).slice(0, 200) : null,
      });
    },
  });
  const used = process.cpuUsage(cpu);
  const result: MemberReport = {
    member: settings.username,
    startedAt,
    signInMs: report.signIn.ms,
    signInError: report.signInError ?? null,
    passes,
    dataPaths: [...dataPaths],
    firstDataCallAt,
    settled: report.settled,
    cpuMs: (used.user + used.system) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  // The engine's timers would keep the process alive: it ends once the report is written out.
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `team-member-run failed: ${error instanceof Error ? error.message : String(error)}\n`,
    () => process.exit(1),
  );
});
