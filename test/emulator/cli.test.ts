// The command line: `npm run emulator` runs `tsx src/emulator/cli.ts`; it prints one
// ready line with the base URL and the account, and exits 1 naming a bad flag.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

function run(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(tsx, ["src/emulator/cli.ts", ...args], { cwd: root });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const end = buffer.indexOf("\n");
      if (end >= 0) resolve(buffer.slice(0, end));
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code} before its ready line`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

test("prints one ready line with the base URL and the account, then serves", async () => {
  const child = run(["--port", "0", "--admin", "--now", "2026-11-10T18:00:00Z"]);
  try {
    const line = await firstLine(child);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    expect(url).toBeDefined();
    expect(line).toContain("analyst@pcd.example");
    const token = await fetch(`${url}/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "analyst@pcd.example", password: "pcd-emulator" }),
    });
    expect(token.status).toBe(200);
    expect((await fetch(`${url}/__admin/stats`)).status).toBe(200);
  } finally {
    child.kill("SIGTERM");
    await exited(child);
  }
});

test("a bad flag exits 1 naming it", async () => {
  const child = run(["--allowance", "lots"]);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  expect(await exited(child)).toBe(1);
  expect(stderr).toMatch(/--allowance expects a non-negative integer, got 'lots'/);
});
