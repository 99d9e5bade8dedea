// `npm test`: the type check, the lint and every Jest lane at once, because Jest alone leaves a
// core idle (while the browser lane builds the add-in, while a browser test or a spawned
// process waits). Jest's output streams; each check's output is shown when it ends. Exits
// non-zero when any of them fails. Arguments go to Jest (npm test -- --selectProjects unit).
const { spawn } = require("node:child_process");
const { createHash } = require("node:crypto");
const { readFileSync } = require("node:fs");
const path = require("node:path");
const { JEST_NODE_FLAGS } = require("./jest-node-flags");

/** A package's command-line script, run with this node (no shell, the same on every OS). */
function bin(packageName, command = packageName) {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath);
  const script = typeof manifest.bin === "string" ? manifest.bin : manifest.bin[command];
  return path.join(path.dirname(manifestPath), script);
}

/**
 * ESLint's and Prettier's caches (a file unchanged since it last passed is not checked again:
 * about 40 of a warm run's CPU-seconds). Keyed by content, not modification time, so a checkout
 * that touches files costs nothing. ESLint invalidates its cache when the configuration changes
 * but not when a local rule's code does: the rules' files name the cache file. Prettier deletes
 * its cache when run without --cache, so `npm run lint` and `npm run format` pass it too.
 */
function eslintCacheFile() {
  const root = path.join(__dirname, "..");
  const hash = createHash("sha256");
  for (const file of ["eslint.config.js", "eslint.source-rules.js", "eslint/local-rules.js"]) {
    hash.update(readFileSync(path.join(root, file)));
  }
  return path.join(root, "node_modules", ".cache", `eslint-${hash.digest("hex").slice(0, 16)}`);
}

const CACHED = ["--cache", "--cache-strategy", "content"];

/**
 * The type check's incremental state: TypeScript re-checks only files whose content changed and
 * the files that depend on them (about 2 CPU-seconds warm instead of 7), and starts over when
 * the compiler options change. A fresh clone has none and checks everything.
 */
const TYPECHECK_STATE = path.join(__dirname, "..", "node_modules", ".cache", "typecheck.tsbuildinfo");

const checks = [
  // TypeScript 7's native compiler: the same checks as TypeScript 6 in a fifth of the time. On
  // one thread (as `npm run typecheck`): its checkers in parallel end no sooner here and cost
  // about 4 CPU-seconds more on a fresh clone, which the tests running beside it lack.
  {
    name: "typecheck",
    command: [
      bin("typescript7", "tsc"),
      "--noEmit",
      "--singleThreaded",
      "--incremental",
      "--tsBuildInfoFile",
      TYPECHECK_STATE,
      "-p",
      "tsconfig.json",
    ],
  },
  { name: "eslint", command: [bin("eslint"), ...CACHED, "--cache-location", eslintCacheFile(), "."] },
  { name: "prettier", command: [bin("prettier"), "--check", "--log-level", "warn", ...CACHED, "."] },
];

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

function run(name, command, streamed) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, { stdio: streamed ? "inherit" : "pipe" });
    let text = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk) => (text += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk) => (text += chunk));
    child.on("error", (error) => (text += `${error.message}\n`));
    child.on("close", (code, signal) => {
      const passed = code === 0;
      if (!streamed) {
        const outcome = passed ? "passed" : `failed (${signal ?? `exit ${code}`})`;
        process.stdout.write(`\n== ${name}: ${outcome} after ${elapsed()}\n`);
        if (text.trim() !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      }
      resolve({ name, passed });
    });
  });
}

async function main() {
  const results = await Promise.all([
    ...checks.map((check) => run(check.name, check.command, false)),
    run("jest", [...JEST_NODE_FLAGS, bin("jest"), ...process.argv.slice(2)], true),
  ]);
  const failed = results.filter((result) => !result.passed).map((result) => result.name);
  const outcome = failed.length === 0 ? "passed" : `failed: ${failed.join(", ")}`;
  process.stdout.write(`\n== npm test: ${outcome} after ${elapsed()}\n`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main();
