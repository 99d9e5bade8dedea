// Request keys are structured (src/core/request-key.ts): their string form names them in
// maps, subscriptions and storage, and no code reads their parts back out of it. This test
// reads the sources of everything but the emulator (which is the service, not the engine)
// and fails on any code that splits or parses a key id.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { sourceFiles } from "../support/source-files";

const ROOT = join(__dirname, "..", "..");
const SOURCES = join(ROOT, "src");

/** Ways to read a key id back into parts. */
const PARSE_BACK: ReadonlyArray<[string, RegExp]> = [
  ["splits text on '|'", /\.split\(\s*(["'`])\|\1\s*\)|\.split\(\s*\/\\\|\/\s*\)/],
  ["a parser of request keys", /parseRequestKey|parseKey\b|keyParts\(/],
];

describe("no request key id is parsed back", () => {
  const files = sourceFiles(SOURCES, [".ts", ".tsx"], ["emulator"]);

  test("the rule reads the engine, the functions, the pane and the runner", () => {
    const read = files.map((file) => relative(ROOT, file));
    for (const part of [
      "src/core/request-key.ts",
      "src/core/refresh.ts",
      "src/functions/value.ts",
      "src/headless/cli.ts",
    ]) {
      expect(read).toContain(part);
    }
    expect(read.some((file) => file.startsWith("src/emulator/"))).toBe(false);
  });

  test.each(PARSE_BACK)("no source %s", (_what, pattern) => {
    const offenders = files
      .filter((file) => pattern.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  test.each(PARSE_BACK)("the rule catches code that %s", (_what, pattern) => {
    const examples = [
      'const [environment, product] = key.split("|");',
      "const parts = parseRequestKey(key);",
    ];
    expect(examples.some((example) => pattern.test(example))).toBe(true);
  });
});
