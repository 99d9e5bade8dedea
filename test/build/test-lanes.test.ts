// The test lanes of jest.config.js hold every test file exactly once, and each file sits in
// the lane its imports call for: one that launches Chromium in browser, one that spawns a
// process or runs webpack (itself or through the test support it imports) outside unit.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { globsToMatcher } from "jest-util";

const root = path.resolve(__dirname, "../..");

interface Lane {
  displayName: string;
  testMatch: string[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { projects } = require(path.join(root, "jest.config.js")) as { projects: Lane[] };

const lanes = projects.map((project) => ({
  name: project.displayName,
  matches: globsToMatcher(project.testMatch.map((glob) => glob.replace("<rootDir>", root))),
}));

const testFiles = readdirSync(path.join(root, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => path.join(root, "test", file));

function lanesOf(file: string): string[] {
  return lanes.filter((lane) => lane.matches(file)).map((lane) => lane.name);
}

type Deed = "launches Chromium" | "spawns processes" | "runs webpack";

/** What a file's own text shows it doing. */
function deedsIn(text: string): Deed[] {
  const deeds: Deed[] = [];
  if (/^import (?!type )[^;]*from "playwright-core"|require\("playwright-core"\)/m.test(text)) {
    deeds.push("launches Chromium");
  }
  if (/from "(node:)?child_process"|require\("(node:)?child_process"\)/.test(text))
    deeds.push("spawns processes");
  if (/\bwebpack\(/.test(text)) deeds.push("runs webpack");
  return deeds;
}

/** Value imports (not `import type`) of the repository's own test support and scripts. */
function supportImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/^(?:import|export) (?!type )[^;]*?from "(\.[^"]+)"/gm)].map(
    (match) => match[1] ?? "",
  );
  return specifiers.flatMap((specifier) => {
    const base = path.resolve(path.dirname(file), specifier);
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(
      (candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate),
    );
    const inSupport =
      found && ["test", "scripts"].includes(path.relative(root, found).split(path.sep)[0] ?? "");
    return inSupport ? [found] : [];
  });
}

/** What a file does, itself or through the test support and scripts it imports. */
function deedsOf(file: string, seen = new Set<string>()): Map<Deed, string> {
  const deeds = new Map<Deed, string>();
  if (seen.has(file)) return deeds;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const deed of deedsIn(text)) deeds.set(deed, path.relative(root, file));
  for (const imported of supportImports(file, text)) {
    for (const [deed, where] of deedsOf(imported, seen)) if (!deeds.has(deed)) deeds.set(deed, where);
  }
  return deeds;
}

test("the lanes are unit, integration and browser", () => {
  expect(lanes.map((lane) => lane.name)).toEqual(["unit", "integration", "browser"]);
});

test("every test file is in exactly one lane", () => {
  expect(testFiles.length).toBeGreaterThan(100);
  const misplaced = testFiles
    .map((file) => ({ file: path.relative(root, file), lanes: lanesOf(file) }))
    .filter((entry) => entry.lanes.length !== 1);
  expect(misplaced).toEqual([]);
});

test("a file that launches Chromium is a browser test; one that spawns or builds is not a unit test", () => {
  const wrong = testFiles.flatMap((file) => {
    const [lane] = lanesOf(file);
    return [...deedsOf(file)].flatMap(([deed, where]) => {
      const through = where === path.relative(root, file) ? "" : ` (through ${where})`;
      const name = path.relative(root, file);
      if (deed === "launches Chromium" && lane !== "browser") {
        return [`${name} ${deed}${through}: it belongs in test/e2e/`];
      }
      if (deed !== "launches Chromium" && lane === "unit") {
        return [`${name} ${deed}${through}: name it *.integration.test.ts`];
      }
      return [];
    });
  });
  expect(wrong).toEqual([]);
});

// The rule's own checks: a file of each kind is seen for what it does.
test.each<[string, Deed[]]>([
  ["test/e2e/taskpane.test.ts", ["launches Chromium", "runs webpack"]],
  ["test/headless/cli.test.ts", ["spawns processes"]],
  ["test/build/webpack-build.test.ts", ["runs webpack"]],
  ["test/build/webpack-config.test.ts", []],
])("%s %j", (file, expected) => {
  expect([...deedsOf(path.join(root, file)).keys()].sort()).toEqual([...expected].sort());
});
