// The recalculation runner as a user runs it, in a child process
// (test/support/typescript-process.ts) against an emulator on 127.0.0.1, its stdout a pipe into
// the test. The whole JSON document arrives however large it is; --help; --timeout bounds the
// process and the report counts what a timed-out pass sent and what the service charged for it;
// bad --timeout and --cache values are usage errors before any call; text output shows dates as
// YYYY-MM-DD.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import type { RunReport } from "../../src/headless";
import { typescriptProcessArgs } from "../support/typescript-process";
import { until } from "../support/until";

// A Tuesday after November's release day, away from maintenance days.
const START = "2026-11-10T15:00:00Z";

// Each test spawns one or two runners (loading TypeScript, a catalog to load) on a shared machine.
// A runner that waited for its abandoned calls would run at least 130 s (one call timeout),
// so this limit still catches one that --timeout does not bound.
jest.setTimeout(90_000);
const CLI = path.join(__dirname, "..", "..", "src", "headless", "cli.ts");
/** An energy series with history from 2007 (about 240 monthly rows). */
const CODE = "68520-8-1";

interface ServiceStats {
  calls: Record<string, number>;
  dataRequests: Record<string, number>;
}

interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

let emulator: RunningEmulator;
let workDir: string;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, now: START, port: 0, host: "127.0.0.1" });
  workDir = await mkdtemp(path.join(tmpdir(), "pcd-recalc-cli-"));
});

afterAll(async () => {
  await emulator.close();
  await rm(workDir, { recursive: true, force: true });
});

async function stats(service: RunningEmulator): Promise<ServiceStats> {
  const response = await fetch(`${service.url}/__admin/stats`);
  return (await response.json()) as ServiceStats;
}

function charged(service: ServiceStats): number {
  return Object.values(service.dataRequests).reduce((sum, count) => sum + count, 0);
}

function callsBetween(before: ServiceStats, after: ServiceStats): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after.calls).map(([operation, count]) => [
      operation,
      count - (before.calls[operation] ?? 0),
    ]),
  );
}

/**
 * Runs the CLI with stdout a pipe. With holdStdoutUntilSaved, the test reads nothing from
 * the pipe until the runner says on stderr that it saved its cache (right before it writes
 * the report), so a runner that exits without waiting for the pipe to drain loses all but
 * what the pipe buffers.
 */
function recalc(
  args: string[],
  options: { service?: RunningEmulator; holdStdoutUntilSaved?: boolean } = {},
): Promise<Finished> {
  const service = options.service ?? emulator;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, typescriptProcessArgs(CLI, ...args), {
      env: {
        ...process.env,
        PCD_BASE_URL: service.url,
        PCD_USERNAME: service.username,
        PCD_PASSWORD: service.password,
        // The engine judges maintenance days by its clock: the emulator's date, not today's.
        PCD_NOW: START,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    let stderr = "";
    let reading = false;
    const read = (): void => {
      if (reading) return;
      reading = true;
      child.stdout.on("data", (data: Buffer) => stdout.push(data));
      child.stdout.resume();
    };
    // A runner that exits without a "Saved" line: read what the pipe kept.
    child.on("exit", read);
    if (options.holdStdoutUntilSaved) child.stdout.pause();
    else read();
    child.stderr.on("data", (chunk: Buffer) => {
      const saved = /Saved \d+ cache entries/;
      const before = saved.test(stderr);
      stderr += chunk.toString("utf8");
      if (options.holdStdoutUntilSaved && !before && saved.test(stderr)) read();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? -1, stdout: Buffer.concat(stdout).toString("utf8"), stderr }),
    );
  });
}

test("the whole JSON document reaches a pipe, however large", async () => {
  // 60 spilled tables of ~240 rows: half a megabyte, far more than a pipe buffers (64 KiB).
  const formulas = Array.from({ length: 60 }, (_, i) => `=PCD.VALUES("${CODE}",,,,,${i % 2},0)`);
  const result = await recalc(["--json", "--cache", path.join(workDir, "pipe.json"), ...formulas], {
    holdStdoutUntilSaved: true,
  });
  expect(result.code).toBe(0);
  expect(result.stdout.length).toBeGreaterThan(256 * 1024);
  const document = JSON.parse(result.stdout) as RunReport;
  expect(document.passes[0]?.results).toHaveLength(formulas.length);
  // Whole tables on the real shape: History and Series Values.
  expect(document.passes[0]?.dataRequests).toBe(2);
});

test("--help prints the usage on stdout and exits 0", async () => {
  const { code, stdout, stderr } = await recalc(["--help"]);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Usage: npm run recalc/);
  expect(stdout).toContain("--timeout S bounds the whole run");
  expect(stderr).toBe("");
});

test.each([
  [["--timeout", "2147484"], /--timeout must be a whole number from 1 to 86400; got "2147484"/],
  [["--timeout", "0"], /--timeout must be a whole number from 1 to 86400; got "0"/],
  [["--timeout=-1"], /--timeout must be a whole number from 1 to 86400; got "-1"/],
  [["--timeout", "ten"], /--timeout must be a whole number from 1 to 86400; got "ten"/],
  [["--cache", "/no-such-directory/pcd-cache.json"], /the directory \/no-such-directory does not exist/],
  [["--cache", "."], /it is a directory, not a file/],
])("%j is a usage error (exit 2) and nothing is sent", async (args, message) => {
  const before = await stats(emulator);
  const { code, stderr } = await recalc([...args, `=PCD.VALUE("${CODE}")`]);
  expect(code).toBe(2);
  expect(stderr).toMatch(message);
  expect(stderr).toMatch(/Usage: npm run recalc/);
  const after = await stats(emulator);
  expect(Object.values(callsBetween(before, after)).every((count) => count === 0)).toBe(true);
});

test("a cache path inside a file is refused before any call", async () => {
  const file = path.join(workDir, "plain.txt");
  await writeFile(file, "not a directory\n");
  const before = await stats(emulator);
  const { code, stderr } = await recalc(["--cache", path.join(file, "cache.json"), `=PCD.VALUE("${CODE}")`]);
  expect(code).toBe(2);
  expect(stderr).toContain("Cannot use --cache");
  expect(callsBetween(before, await stats(emulator))).toMatchObject({ access_token: 0, series_info: 0 });
});

test("text output shows dates as YYYY-MM-DD; JSON keeps serials and adds ISO dates", async () => {
  const formulas = [
    `=PCD.VALUES("${CODE}",,,DATE(2024,1,1),"2024-02-29",0,0)`,
    `=PCD.INFO("${CODE}","last_available_final")`,
  ];
  const text = await recalc(formulas);
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/^ {4}2024-01-01 {2}\d/m);
  expect(text.stdout).toMatch(/^ {4}2024-02-01 {2}\d/m);
  expect(text.stdout).not.toMatch(/^ {4}45292\b/m);

  const json = await recalc(["--json", ...formulas]);
  const [table] = (JSON.parse(json.stdout) as RunReport).passes[0]?.results ?? [];
  expect(table).toMatchObject({
    value: [
      [45292, expect.any(Number)],
      [45323, expect.any(Number)],
    ],
    iso: [
      ["2024-01-01", expect.any(Number)],
      ["2024-02-01", expect.any(Number)],
    ],
  });
});

describe("against a slow service", () => {
  test("--timeout bounds the process: the run ends, reports, and exits 3 without waiting for its calls", async () => {
    // Every data answer (the catalog included) takes 10 minutes; the test's own time limit
    // is far shorter, so a runner that waited for its calls would fail it.
    const cache = path.join(workDir, "slow.json");
    const formula = `=PCD.VALUE("${CODE}")`;
    // A workbook cached from a quick service: refresh-all then has series to check.
    expect((await recalc(["--cache", cache, formula])).code).toBe(0);
    const slow = await startEmulator({ quiet: true, now: START, latencyMs: 600_000 });
    try {
      const { code, stdout, stderr } = await recalc(
        ["--json", "--timeout", "3", "--refresh", "--cache", cache, formula],
        { service: slow },
      );
      expect(code).toBe(3);
      // Signing in reads the saved workbook's Data Limits ahead; refresh-all reads the catalog.
      expect(stderr).toMatch(/Did not finish within the timeout:\n {2}(signing in|refresh all)\n/);
      const document = JSON.parse(stdout) as RunReport;
      expect(document.signIn.timedOut ?? document.refresh?.timedOut).toBe(true);
      expect(document.passes).toEqual([]);
      expect(document.settled).toBe(false);
      expect(document.total.timedOut).toBe(true);
      expect(document.signIn.http.access_token).toBe(1);
    } finally {
      await slow.close();
    }
  });

  test("a timed-out pass reports the data requests it sent without an answer, and the service charged them", async () => {
    const faults = { mode: "latency", latencyMs: 600_000 };
    for (const operation of ["series_values", "series_hist"]) {
      await fetch(`${emulator.url}/__admin/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...faults, operation }),
      });
    }
    try {
      const before = await stats(emulator);
      const { code, stdout } = await recalc(["--json", "--timeout", "10", `=PCD.VALUE("${CODE}","2020-01")`]);
      expect(code).toBe(3);
      const document = JSON.parse(stdout) as RunReport;
      const [pass] = document.passes;
      expect(pass?.stuck).toEqual([`=PCD.VALUE("${CODE}","2020-01")`]);
      expect(pass).toMatchObject({ dataRequests: 0, dataRequestsUnconfirmed: 1 });
      // The service charges the call when the runner hangs up; wait for it to get there.
      const after = await until(
        () => stats(emulator),
        (now) => charged(now) !== charged(before),
        "the charge of the call the runner hung up on",
        { pollMs: 50 },
      );
      expect(charged(after) - charged(before)).toBe(
        document.total.dataRequests + document.total.dataRequestsUnconfirmed,
      );
      expect(callsBetween(before, after)).toEqual(document.total.http);
    } finally {
      await fetch(`${emulator.url}/__admin/faults`, { method: "DELETE" });
    }
  });
});
