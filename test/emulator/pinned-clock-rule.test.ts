// Tests must not depend on today's date. The emulator keeps the real service's calendar
// (maintenance on the 15th and 25th, the monthly release day; docs/service.md), and the
// engine predicts the same days from its own clock. A test that starts the emulator on the
// real clock, or runs the recalc CLI in a child process without PCD_NOW, passes on most days
// and fails on those (CI on a 25th: ten failures). This test reads the test and bench
// sources and fails on either.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sourceFiles } from "../support/source-files";

const ROOT = join(__dirname, "..", "..");

/** The argument text of each startEmulator(...) call, up to its closing parenthesis. */
function startEmulatorArguments(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bstartEmulator\(/g)) {
    let depth = 1;
    let index = (match.index ?? 0) + match[0].length;
    const start = index;
    while (index < text.length && depth > 0) {
      const char = text[index];
      if (char === "(") depth += 1;
      if (char === ")") depth -= 1;
      index += 1;
    }
    found.push(text.slice(start, index - 1));
  }
  return found;
}

/** Whether the arguments set the emulator's clock (a `now` property or shorthand). */
function pinsClock(args: string): boolean {
  return /\bnow\s*[:,}]/.test(args);
}

// This file's own examples are not emulators a test starts.
const files = [
  ...sourceFiles(join(ROOT, "test"), [".ts"]),
  ...sourceFiles(join(ROOT, "bench"), [".ts"]),
].filter((file) => file !== __filename);

test.each([
  ["startEmulator({ quiet: true, now: START, port: 0 })", true],
  ["startEmulator({ port: 0, quiet: true, now })", true],
  ["startEmulator({\n  now: QUIET,\n  quiet: true,\n})", true],
  ["startEmulator({ port: 0, quiet: true, ...options })", false],
  ["startEmulator({ port: 0, quiet: true, nowhere: 1 })", false],
])("the reader judges %j (pins the clock: %s)", (text, pinned) => {
  const [args] = startEmulatorArguments(text);
  expect(args).toBeDefined();
  expect(pinsClock(args ?? "")).toBe(pinned);
});

test("the rule reads the tests that start emulators", () => {
  const starting = files.filter((file) => startEmulatorArguments(readFileSync(file, "utf8")).length > 0);
  expect(starting.length).toBeGreaterThan(10);
});

test("every emulator a test starts has its clock set", () => {
  const unpinned = files.flatMap((file) =>
    startEmulatorArguments(readFileSync(file, "utf8"))
      .filter((args) => !pinsClock(args))
      .map((args) => `${relative(ROOT, file)}: startEmulator(${args.replace(/\s+/g, " ")})`),
  );
  // bench/emulator-process.ts receives its options (with the run's start instant) from
  // bench/benchmark.ts, which sets `now`; it is checked there.
  expect(unpinned).toEqual(["bench/emulator-process.ts: startEmulator({ ...options, quiet: true })"]);
});

test("every test that runs the recalc CLI in a child process sets PCD_NOW", () => {
  const spawning = files.filter((file) => {
    const text = readFileSync(file, "utf8");
    return /headless["'`,\s/]+["'`]?cli\.ts/.test(text) && /\b(spawn|execFile)\w*\(/.test(text);
  });
  expect(spawning.map((file) => relative(ROOT, file))).toEqual(
    expect.arrayContaining([
      "test/headless/cli.test.ts",
      "test/headless/emulator-runner.test.ts",
      "test/docs/readme-runner-example.test.ts",
    ]),
  );
  expect(
    spawning.filter((file) => !readFileSync(file, "utf8").includes("PCD_NOW")).map((f) => relative(ROOT, f)),
  ).toEqual([]);
});
