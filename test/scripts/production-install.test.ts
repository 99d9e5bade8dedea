// The deployment of docs/deploy.md from package.json and the lockfile alone: the server
// built where the devDependencies are, then `npm ci --omit=dev --offline` beside the build (from
// npm's cache, which the checkout's own install filled: no traffic leaves the machine), and
// `npm run serve` serves the add-in and `npm run gateway` starts, with the production packages only.
//
// Gated to run once per dependency set: the install and the two starts take about 13 s on the
// 2-core machines here (the install alone 8 to 12 CPU-seconds), not worth repeating on every
// `npm test`, and the outcome can only change when package.json, the lockfile, .npmrc or the
// launcher change.
// A passing run leaves a marker named by their hash in node_modules/.cache, so CI (a fresh
// `npm ci`) always runs it and a checkout runs it again after any dependency change. The fast
// checks that the dependencies are exactly the packages the built server loads run every time
// (test/scripts/serve.test.ts).
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { newPGliteDirectory } from "../gateway/support/new-pglite-directory";
import { writeFakeDist } from "../server/support/fake-dist";
import { compileServer, ROOT } from "./support/built-server";

const INPUTS = ["package.json", "package-lock.json", ".npmrc", "scripts/run-built.js"];
const fingerprint = createHash("sha256")
  .update(INPUTS.map((file) => readFileSync(path.join(ROOT, file), "utf8")).join("\0"))
  .digest("hex")
  .slice(0, 16);
const marker = path.join(ROOT, "node_modules/.cache/pcd-production-install", fingerprint);
const gated = existsSync(marker) ? test.skip : test;

let checkout: string | undefined;
let dist: string | undefined;

afterAll(() => {
  for (const folder of [checkout, dist]) if (folder) rmSync(folder, { recursive: true, force: true });
});

gated(
  "npm ci --omit=dev beside the built server, then npm run serve serves the add-in and npm run gateway starts",
  async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "pcd-production-"));
    checkout = folder;
    for (const file of INPUTS) {
      mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      copyFileSync(path.join(ROOT, file), path.join(folder, file));
    }
    dist = writeFakeDist();
    await Promise.all([
      compileServer(path.join(folder, "dist-server")),
      promisify(execFile)("npm", ["ci", "--omit=dev", "--offline", "--no-audit", "--no-fund"], {
        cwd: folder,
      }),
    ]);
    // A production install: none of the build tools.
    expect(
      ["typescript", "typescript7", "tsx", "webpack", "jest"].filter((name) =>
        existsSync(path.join(folder, "node_modules", name)),
      ),
    ).toEqual([]);

    // Its own process group: npm does not pass SIGTERM on to the server it started.
    const child = spawn("npm", ["run", "serve", "--", "--port", "0", "--dist", dist], {
      cwd: folder,
      stdio: "pipe",
      detached: true,
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          const ready = /PCD add-in served at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (ready) resolve(ready[1] as string);
        });
        void exited.then((code) => reject(new Error(`npm run serve exited (${code}) before it was ready`)));
      });
      const page = await fetch(`${url}/taskpane.html`);
      expect([page.status, (await page.text()).includes("<p>PCD</p>")]).toEqual([200, true]);
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    }
    await exited;

    // The team gateway from the same install: its store (PGlite), metrics and server packages
    // are production dependencies too. It needs no service to start and answer /healthz. Its
    // database is a copy of the run's new PGlite database (the same PGlite, by the lockfile): the
    // gateway's process took 2.7 CPU-seconds on it against 10.1 creating one (initdb in WASM),
    // which test/gateway/gateway-cli.integration.test.ts does from the repository's install.
    const gateway = spawn(
      "npm",
      [
        "run",
        "gateway",
        "--",
        "--port",
        "0",
        "--upstream",
        "http://127.0.0.1:9",
        "--database",
        newPGliteDirectory(path.join(folder, "gateway-db")),
      ],
      {
        cwd: folder,
        stdio: "pipe",
        detached: true,
        env: {
          ...process.env,
          PCD_UPSTREAM_USERNAME: "developer@example.com",
          PCD_UPSTREAM_PASSWORD: "not used",
        },
      },
    );
    const gatewayExited = new Promise<number | null>((resolve) => gateway.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const read = (chunk: Buffer): void => {
          out += chunk.toString("utf8");
          const ready = /PCD gateway listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (ready) resolve(ready[1] as string);
        };
        gateway.stdout.on("data", read);
        gateway.stderr.on("data", read);
        void gatewayExited.then((code) =>
          reject(new Error(`npm run gateway exited (${code}) before it was ready:\n${out}`)),
        );
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      if (gateway.pid !== undefined) process.kill(-gateway.pid, "SIGTERM");
    }
    await gatewayExited;
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, "passed\n");
  },
  360_000,
);
