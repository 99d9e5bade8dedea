// The README's runner example, run as written while `npm start` holds its emulator port:
// it starts its own emulator on another port, points --base-url at it, takes the account
// from PCD_USERNAME and PCD_PASSWORD (never --password on the command line, where other
// users see it), and its JSON reaches the pipe whole. The test runs the example's recalc
// command word for word, with the example's address swapped for an emulator on an
// ephemeral port and the password typed at its prompt given as PCD_PASSWORD.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../src/emulator";
import type { RunReport } from "../../src/headless";

jest.setTimeout(90_000);

const ROOT = path.join(__dirname, "..", "..");
const CLI = path.join(ROOT, "src", "headless", "cli.ts");
const TSX = require.resolve("tsx/cli");
/** The emulator port `npm start` holds unless PCD_EMULATOR_PORT says otherwise (scripts/start.ts). */
const START_PORT = 3001;

/** The shell block of the README's "Scripted use" section. */
function example(): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.split("### Scripted use: the headless runner")[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md has no runner example");
  return block.replace(/\\\n\s*/g, "");
}

/** Words of a command line: plain words and single-quoted ones (all the example uses). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

/** A Tuesday away from maintenance and release days, for the emulator and the runner alike. */
const QUIET_DAY = "2026-11-10T15:00:00Z";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, now: QUIET_DAY, port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await emulator.close();
});

test("the example's emulator and --base-url use one port, not the one npm start holds", () => {
  const text = example();
  const port = /npm run emulator -- --port (\d+)/.exec(text)?.[1];
  const baseUrl = /--base-url http:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1];
  expect(port).toBeDefined();
  expect(Number(port)).not.toBe(START_PORT);
  expect(baseUrl).toBe(port);
});

test("the example keeps the password off the command line: PCD_PASSWORD, read without echo", () => {
  const text = example();
  expect(text).not.toMatch(/--password\b/);
  expect(text).toMatch(/^read -rsp '[^']*' PCD_PASSWORD && export PCD_PASSWORD\b/m);
  expect(text).toMatch(/^export PCD_USERNAME=\S+$/m);
});

test("the example's recalc command prints one whole JSON document into a pipe", async () => {
  const text = example();
  const line = text.split("\n").find((row) => row.includes("npm run -s recalc --"));
  if (line === undefined) throw new Error("the example has no recalc command");
  const command = line.split(" | ")[0] ?? "";
  const args = words(command.split("recalc --")[1] ?? "").map((word) =>
    word.replace(/^http:\/\/127\.0\.0\.1:\d+$/, emulator.url),
  );
  expect(args).toContain(emulator.url);
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve, reject) => {
    // No PCD_* address: the example's own flags carry it. The account is what the example
    // exports: its PCD_USERNAME, and the password typed at its prompt.
    // PCD_NOW is set: the engine judges maintenance days by its clock, which must read
    // the emulator's date (on a real maintenance day it would not call at all).
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PCD_"))),
      PCD_USERNAME: /^export PCD_USERNAME=(\S+)$/m.exec(text)?.[1] ?? "",
      PCD_PASSWORD: emulator.password,
      PCD_NOW: QUIET_DAY,
    };
    const child = spawn(process.execPath, [TSX, CLI, ...args], { env, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (exit) =>
      resolve({ code: exit ?? -1, stdout: Buffer.concat(chunks).toString("utf8") }),
    );
  });
  expect(code).toBe(0);
  const report = JSON.parse(stdout) as RunReport;
  // What `| jq .total` shows: the run's calls, the sign-in among them, and its data requests.
  expect(report.total.http.access_token).toBe(1);
  expect(report.total.dataRequests).toBeGreaterThan(0);
  expect(report.passes).toHaveLength(2);
});
