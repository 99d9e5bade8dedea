// `npm run serve` as a person runs it: one line with the URL when ready, then it serves
// until stopped; a bad flag is named with the usage.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { writeFakeDist } from "../server/support/fake-dist";

const root = path.resolve(__dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

function run(args: string[]) {
  return spawn(tsx, [path.join(root, "scripts/serve.ts"), ...args], { cwd: root, stdio: "pipe" });
}

test("prints one line with its URL when ready, and serves /healthz there", async () => {
  const dist = writeFakeDist();
  const child = run(["--port", "0", "--dist", dist]);
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out);
      });
      child.once("exit", (code) => reject(new Error(`serve exited (${code}) before it was ready`)));
    });
    expect(line).toMatch(/^PCD add-in served at http:\/\/127\.0\.0\.1:\d+ \(from .+\)\n$/);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] ?? "";
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toMatchObject({ status: "ok" });
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dist, { recursive: true, force: true });
  }
}, 60_000);

test("a bad flag: exit code 2, the flag named, the usage shown", async () => {
  const child = run(["--port", "eighty"]);
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/--port expects a port number/);
  expect(err).toMatch(/Usage: npm run serve --/);
}, 60_000);
