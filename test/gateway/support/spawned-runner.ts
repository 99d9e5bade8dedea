// `npm run recalc` in a child process of its own (the runner keeps one engine per process), so
// several members can run their workbooks through the gateway at the same moment.
import { spawn } from "node:child_process";
import path from "node:path";
import type { RunReport } from "../../../src/headless";
import { typescriptProcessArgs } from "../../support/typescript-process";

const CLI = path.resolve(__dirname, "../../../src/headless/cli.ts");

export type RunnerAccount = {
  baseUrl: string;
  authUrl: string;
  /** The instant the runner's clock starts at (the emulator's date). */
  now: string;
} & ({ username: string; password: string } | { apiKey: string });

/** The environment without the runner's account variables, so only the test's account counts. */
function withoutAccount(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PCD_API_KEY: _key, PCD_USERNAME: _username, PCD_PASSWORD: _password, ...rest } = env;
  return rest;
}

export function spawnRunner(formulas: readonly string[], account: RunnerAccount): Promise<RunReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      typescriptProcessArgs(CLI, "--json", "--timeout", "90", ...formulas),
      {
        env: {
          ...withoutAccount(process.env),
          PCD_BASE_URL: account.baseUrl,
          PCD_AUTH_URL: account.authUrl,
          ...("apiKey" in account
            ? { PCD_API_KEY: account.apiKey }
            : { PCD_USERNAME: account.username, PCD_PASSWORD: account.password }),
          PCD_NOW: account.now,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(stdout).toString("utf8");
      try {
        resolve(JSON.parse(text) as RunReport);
      } catch {
        reject(
          new Error(
            `The runner exited ${String(code)} without a JSON report. stderr:\n${stderr.slice(-2000)}`,
          ),
        );
      }
    });
  });
}
