// What Jest loads for "@fluentui/react-icons" (jest.config.js, moduleNameMapper): the same
// exports as the package's CommonJS index, each icon loading its chunk of icons when first
// read. The real index requires 19 MB of icon modules (every icon in every size) up front:
// about 1.5 CPU-seconds for each test file that renders a Fluent component, which needs a few
// icons. An icon's name is found in its chunk's first lines (`exports.AddFilled = ... = void 0;`,
// TypeScript's CommonJS output), without running the chunk. The index's other modules are
// small and load at once. A statement of the index this reader does not follow stops the test
// file with a message instead of leaving an export out (test/build/fluent-on-demand.test.ts
// compares the exports with the real index's).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { Buffer } = require("node:buffer");

/** The real package, by path: Jest maps the package's own name to this file. */
const FOLDER = path.join(__dirname, "..", "..", "node_modules", "@fluentui", "react-icons", "lib-cjs");

const CHUNK = /^(?:icons|sizedIcons)\/chunk-\d+\.cjs$/;

/** How much of a chunk is read for its names: they fill its first 75 KB at most (2.0.344). */
const HEAD_BYTES = 128 * 1024;

/** The names a chunk declares in its first lines, before the first statement that is not one. */
function chunkNames(file) {
  const head = Buffer.alloc(HEAD_BYTES);
  const descriptor = fs.openSync(file, "r");
  const read = fs.readSync(descriptor, head, 0, HEAD_BYTES, 0);
  fs.closeSync(descriptor);
  const names = [];
  for (const line of head.toString("utf8", 0, read).split("\n")) {
    if (line.startsWith("exports.") && line.endsWith(" = void 0;")) {
      for (const [, name] of line.matchAll(/exports\.([\w$]+) =/g)) names.push(name);
    } else if (names.length > 0) {
      return names;
    }
  }
  throw new Error(`No complete list of icon names in the first ${HEAD_BYTES} bytes of ${file}.`);
}

Object.defineProperty(exports, "__esModule", { value: true });

const define = (name, read) => {
  if (!Object.prototype.hasOwnProperty.call(exports, name)) {
    Object.defineProperty(exports, name, { enumerable: true, get: read });
  }
};

const lines = fs.readFileSync(path.join(FOLDER, "index.cjs"), "utf8").split("\n");
const variables = new Map();
for (const line of lines) {
  const star = /^tslib_1\.__exportStar\(require\("\.\/([^"]+)"\), exports\);$/.exec(line);
  const variable = /^var (\w+) = require\("\.\/([^"]+)"\);$/.exec(line);
  const getter =
    /^Object\.defineProperty\(exports, "(\w+)", \{ enumerable: true, get: function \(\) \{ return (\w+)\.(\w+); \} \}\);$/.exec(
      line,
    );
  if (star && CHUNK.test(star[1])) {
    const file = path.join(FOLDER, star[1]);
    const names = chunkNames(file);
    for (const name of names) define(name, () => require(file)[name]);
  } else if (star) {
    const module = require(path.join(FOLDER, star[1]));
    for (const name of Object.keys(module)) if (name !== "default") define(name, () => module[name]);
  } else if (variable) {
    variables.set(variable[1], path.join(FOLDER, variable[2]));
  } else if (getter && variables.has(getter[2])) {
    const file = variables.get(getter[2]);
    const member = getter[3];
    define(getter[1], () => require(file)[member]);
  } else if (getter || (line.includes("require(") && !line.startsWith("const tslib_1 = require("))) {
    throw new Error(
      `test/support/fluent-icons-on-demand.js does not follow this statement of ${FOLDER}/index.cjs: ${line.slice(0, 120)}; update the reader.`,
    );
  }
}
