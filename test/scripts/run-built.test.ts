// scripts/run-built.js, what `npm run serve` runs: the compiled command with its flags, or,
// without a build, a message that says to run npm run build first.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./support/built-server";

let checkout: string;

beforeAll(() => {
  checkout = mkdtempSync(path.join(tmpdir(), "pcd-run-built-"));
  mkdirSync(path.join(checkout, "scripts"));
  copyFileSync(path.join(ROOT, "scripts/run-built.js"), path.join(checkout, "scripts/run-built.js"));
  // A built command that shows what it was started with.
  mkdirSync(path.join(checkout, "dist-server/scripts"), { recursive: true });
  writeFileSync(
    path.join(checkout, "dist-server/scripts/echo.js"),
    "process.stdout.write(JSON.stringify({ script: require('path').basename(process.argv[1]), args: process.argv.slice(2) }));",
  );
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

test.each([
  [
    "a built command gets its flags as if node ran it",
    ["echo", "--port", "0"],
    0,
    '{"script":"echo.js","args":["--port","0"]}',
    "",
  ],
  [
    "a command not built yet",
    ["serve", "--port", "0"],
    1,
    "",
    "npm run serve: dist-server/scripts/serve.js is missing: run npm run build first",
  ],
  ["no command", [], 1, "", "run npm run build first"],
  ["a name that is not a command", ["../../etc/passwd"], 1, "", "run npm run build first"],
])("%s", (_case, args, status, stdout, stderr) => {
  const run = spawnSync(process.execPath, [path.join(checkout, "scripts/run-built.js"), ...args], {
    cwd: checkout,
    encoding: "utf8",
  });
  expect(run.status).toBe(status);
  expect(run.stdout).toBe(stdout);
  expect(run.stderr).toContain(stderr);
  if (stderr === "") expect(run.stderr).toBe("");
});
