import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { entryFiles, gzipBytes, initialFiles, type WebpackStats } from "../../bench/bundle-size";

// The shape of the project's real build: one runtime chunk whose children are every
// entry's lazy chunks, the task pane entry loading its app and a vendor chunk lazily, the
// functions entry loading the search index on first use.
const stats: WebpackStats = {
  entrypoints: {
    functions: { chunks: [121, 906] },
    taskpane: { chunks: [121, 926] },
  },
  chunks: [
    { id: 121, names: ["runtime"], files: ["runtime.js"], children: [268, 854, 477] },
    { id: 906, names: ["functions"], files: ["functions.js", "functions.js.map"], children: [477] },
    { id: 477, names: ["search-index"], files: ["search-index.1f2e3d4c.js"], children: [] },
    { id: 926, names: ["taskpane"], files: ["taskpane.js"], children: [268, 854] },
    { id: 268, names: ["taskpane-app"], files: ["taskpane-app.0d66b012.js"], children: [] },
    { id: 854, names: [], files: ["854.096c261b.js", "854.096c261b.js.LICENSE.txt"], children: [] },
  ],
};

describe("entryFiles", () => {
  test.each([
    [
      "functions with the runtime and its lazy chunk",
      "functions",
      true,
      ["functions.js", "runtime.js", "search-index.1f2e3d4c.js"],
    ],
    [
      "task pane without the runtime",
      "taskpane",
      false,
      ["854.096c261b.js", "taskpane-app.0d66b012.js", "taskpane.js"],
    ],
    [
      "task pane with the runtime",
      "taskpane",
      true,
      ["854.096c261b.js", "runtime.js", "taskpane-app.0d66b012.js", "taskpane.js"],
    ],
  ])("%s", (_name, entry, includeRuntime, expected) => {
    expect(entryFiles(stats, entry, includeRuntime)).toEqual(expected);
  });

  test("an unknown entry point is an error naming it", () => {
    expect(() => entryFiles(stats, "preview", true)).toThrow("'preview'");
  });
});

describe("initialFiles", () => {
  test.each([
    ["functions: what loads at start, not its lazy chunk", "functions", ["functions.js", "runtime.js"]],
    ["task pane: its stub and the runtime", "taskpane", ["runtime.js", "taskpane.js"]],
  ])("%s", (_name, entry, expected) => {
    expect(initialFiles(stats, entry)).toEqual(expected);
  });

  test("an unknown entry point is an error naming it", () => {
    expect(() => initialFiles(stats, "preview")).toThrow("'preview'");
  });
});

test("gzipBytes adds up the compressed size of each file", async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), "pcd-bench-gzip-"));
  try {
    const first = "a".repeat(5000);
    const second = "function f() { return 1; }\n".repeat(50);
    await writeFile(path.join(folder, "a.js"), first);
    await writeFile(path.join(folder, "b.js"), second);
    const expected = gzipSync(first, { level: 9 }).length + gzipSync(second, { level: 9 }).length;
    expect(await gzipBytes(folder, ["a.js", "b.js"])).toBe(expected);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
