import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  analyseFiles,
  largestModules,
  moduleBytes,
  moduleName,
  UNMAPPED,
  type SourceMapLike,
} from "../../bench/bundle-analysis";

describe("moduleName", () => {
  test.each([
    ["a project file", "webpack://pcd-excel-addin/./src/core/engine-core.ts", "src/core/engine-core.ts"],
    [
      "a package file, by the package",
      "webpack://pcd-excel-addin/./node_modules/minisearch/dist/es/index.js",
      "minisearch",
    ],
    [
      "a package outside the project folder",
      "webpack://pcd-excel-addin/../../../srv/build/node_modules/bottleneck/light.js",
      "bottleneck",
    ],
    ["a scoped package with its scope", "webpack://x/./node_modules/@scope/pkg/lib/a.js", "@scope/pkg"],
    [
      "a package inside another package's node_modules",
      "webpack://x/./node_modules/a/node_modules/b/index.js",
      "b",
    ],
    [
      "webpack's runtime as one",
      "webpack://pcd-excel-addin/webpack/runtime/load script",
      "(webpack runtime)",
    ],
  ])("%s", (_name, source, expected) => {
    expect(moduleName(source)).toBe(expected);
  });
});

// Four lines of "minified" code and their mappings (base64 VLQ: generated column, source
// index, source line, source column; deltas). Line 0: minisearch from column 0, the search
// index from column 8 (Q = +8, C = +1 source). Line 1: webpack's runtime (C = +1 source).
// Line 2: minisearch again (F = -2 sources), then from column 20 (oB, a two-digit number)
// a segment with no source. Line 3: the scoped package (G = +3 sources).
const code = ["var a=1;function b(){}", 's("é");', `${"a".repeat(20)};;`, "zz"].join("\n");
const map: SourceMapLike = {
  sources: [
    "webpack://pcd/./node_modules/minisearch/dist/es/index.js",
    "webpack://pcd/./src/core/search-index.ts",
    "webpack://pcd/webpack/runtime/load script",
    "webpack://pcd/../../node_modules/@scope/pkg/a.js",
  ],
  mappings: "AAAA,QCAA;ACAA;AFAA,oB;AGAA",
};

describe("moduleBytes", () => {
  const sizes = moduleBytes(code, map);

  test.each([
    ["minisearch: 8 bytes on line 0 and 20 on line 2", "minisearch", 28],
    ["the search index: the rest of line 0", "src/core/search-index.ts", 14],
    ["webpack's runtime: UTF-8 bytes, é counts two", "(webpack runtime)", 8],
    ["the scoped package", "@scope/pkg", 2],
    ["glue: the unmapped end of line 2 and three line breaks", UNMAPPED, 5],
  ])("%s", (_name, module, bytes) => {
    expect(sizes.get(module)).toBe(bytes);
  });

  test("the modules' bytes add up to the file's", () => {
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(Buffer.byteLength(code));
  });

  test("code before a line's first segment is glue", () => {
    expect(moduleBytes("xyz", { sources: ["webpack://p/./src/a.ts"], mappings: "EAAA" })).toEqual(
      new Map([
        [UNMAPPED, 2],
        ["src/a.ts", 1],
      ]),
    );
  });

  test("a mapping that is not base64 is an error naming the character", () => {
    expect(() => moduleBytes("x", { sources: [], mappings: "A*AA" })).toThrow("'*'");
  });
});

describe("largestModules", () => {
  test.each([
    [
      "largest first, cut to the count, total of all",
      [
        ["b", 10],
        ["a", 30],
        ["c", 20],
      ],
      2,
      [
        { name: "a", bytes: 30 },
        { name: "c", bytes: 20 },
      ],
      60,
    ],
    [
      "a module in several files counts once, summed",
      [
        ["minisearch", 5],
        ["src/x.ts", 8],
        ["minisearch", 5],
      ],
      5,
      [
        { name: "minisearch", bytes: 10 },
        { name: "src/x.ts", bytes: 8 },
      ],
      18,
    ],
    [
      "ties by name",
      [
        ["z", 4],
        ["y", 4],
      ],
      5,
      [
        { name: "y", bytes: 4 },
        { name: "z", bytes: 4 },
      ],
      8,
    ],
  ] as Array<[string, Array<[string, number]>, number, Array<{ name: string; bytes: number }>, number]>)(
    "%s",
    (_name, sizes, count, modules, totalBytes) => {
      expect(largestModules(sizes, count)).toEqual({ modules, totalBytes });
    },
  );
});

describe("analyseFiles", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "pcd-bench-analysis-"));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  test("reads each file with its source map", async () => {
    await writeFile(path.join(folder, "functions.js"), code);
    await writeFile(path.join(folder, "functions.js.map"), JSON.stringify(map));
    await writeFile(path.join(folder, "runtime.js"), "r");
    await writeFile(
      path.join(folder, "runtime.js.map"),
      JSON.stringify({ sources: ["webpack://pcd/webpack/bootstrap"], mappings: "AAAA" }),
    );
    const { modules } = largestModules(await analyseFiles(folder, ["functions.js", "runtime.js"]), 1);
    expect(modules).toEqual([{ name: "minisearch", bytes: 28 }]);
    const all = largestModules(await analyseFiles(folder, ["functions.js", "runtime.js"]), 10);
    expect(all.modules.find((module) => module.name === "(webpack runtime)")?.bytes).toBe(9);
  });

  test("a file without a source map is an error naming it", async () => {
    await writeFile(path.join(folder, "functions.js"), code);
    await expect(analyseFiles(folder, ["functions.js"])).rejects.toThrow("functions.js.map");
  });
});
