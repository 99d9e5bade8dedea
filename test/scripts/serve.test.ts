// `npm run serve` as a person runs it after `npm run build`: the server compiled to
// JavaScript (tsconfig.server.json) run by plain node. It prints one line with its URL when
// ready, serves the built add-in, stops on SIGTERM, and names a bad flag with the usage.
// Built once into a temporary folder laid out as a checkout is (package.json and
// node_modules beside the build), so the built code finds its packages as it does there.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeFakeDist } from "../server/support/fake-dist";
import { compileServer, packageManifest, requiredPackages, ROOT } from "./support/built-server";

let checkout: string;
let dist: string;

beforeAll(async () => {
  checkout = mkdtempSync(path.join(tmpdir(), "pcd-built-server-"));
  copyFileSync(path.join(ROOT, "package.json"), path.join(checkout, "package.json"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(checkout, "node_modules"), "dir");
  await compileServer(path.join(checkout, "dist-server"));
  dist = writeFakeDist();
}, 120_000);

afterAll(() => {
  rmSync(checkout, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
});

function serve(args: string[]) {
  return spawn(process.execPath, [path.join(checkout, "dist-server/scripts/serve.js"), ...args], {
    cwd: checkout,
    stdio: "pipe",
  });
}

test("every package the built server requires is a dependency (what npm ci --omit=dev installs)", () => {
  const { dependencies } = packageManifest();
  const required = requiredPackages(path.join(checkout, "dist-server"));
  // p-throttle is loaded with import(): the check reads both forms.
  expect(required).toEqual(expect.arrayContaining(["fastify", "@fastify/static", "p-throttle"]));
  expect(required.filter((name) => dependencies[name] === undefined)).toEqual([]);
});

test("every dependency is one the built server loads (the add-in's libraries are in its bundles: devDependencies)", () => {
  const { dependencies } = packageManifest();
  const required = new Set(requiredPackages(path.join(checkout, "dist-server")));
  expect(Object.keys(dependencies).filter((name) => !required.has(name))).toEqual([]);
});

test("prints one line with its URL when ready, serves the add-in there, and exits on SIGTERM", async () => {
  const child = serve(["--port", "0", "--dist", dist]);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out);
      });
      void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready`)));
    });
    expect(line).toMatch(/^PCD add-in served at http:\/\/127\.0\.0\.1:\d+ \(from .+\)\n$/);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] ?? "";
    const answers = await Promise.all(
      ["/", "/taskpane.html", "/functions.json", "/assets/icon-16.png", "/healthz"].map(async (pathname) => {
        const response = await fetch(`${url}${pathname}`);
        return [pathname, response.status, await response.text()] as const;
      }),
    );
    expect(answers).toEqual([
      ["/", 200, expect.stringContaining("<p>PCD</p>")],
      ["/taskpane.html", 200, expect.stringContaining("<p>PCD</p>")],
      ["/functions.json", 200, '{"functions":[]}'],
      ["/assets/icon-16.png", 200, "png"],
      ["/healthz", 200, `{"status":"ok","version":"${packageManifest().version}"}`],
    ]);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exited).toBe(0);
}, 60_000);

test("a bad flag: exit code 2, the flag named, the usage shown", async () => {
  const child = serve(["--port", "eighty"]);
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  expect(code).toBe(2);
  expect(err).toMatch(/--port expects a port number/);
  expect(err).toMatch(/Usage: npm run serve --/);
}, 60_000);
