// What Jest loads for "@fluentui/react-components" (jest.config.js, moduleNameMapper): the same
// exports as the package's CommonJS index, each loading its Fluent package when first read.
// Jest gives every test file a module registry of its own, and the real index requires all of
// its 58 packages (and, through them, every Fluent icon) up front: about 2.4 CPU-seconds a
// test file that renders a pane component, most of it for components the file never renders.
// The names come from the index itself, so an upgrade of Fluent brings its new exports;
// a change in the index's layout that this reader does not follow stops the test file with a
// message instead of leaving an export out (test/build/fluent-on-demand.test.ts compares the
// exports with the real index's).
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** The real index, by path: Jest maps the package's own name to this file. */
const INDEX = path.join(
  __dirname,
  "..",
  "..",
  "node_modules",
  "@fluentui",
  "react-components",
  "lib-commonjs",
  "index.cjs",
);

const text = fs.readFileSync(INDEX, "utf8");

/** `const _reactbutton = require("@fluentui/react-button");` */
const packages = new Map();
for (const [, variable, packageName] of text.matchAll(/^const (_\w+) = require\("([^"]+)"\);$/gm)) {
  packages.set(variable, packageName);
}

Object.defineProperty(exports, "__esModule", { value: true });

// `get Button () { return _reactbutton.Button; }`, with comment lines after `get` at times.
const GETTER = /get\s+(?:\/\/[^\n]*\n\s*)*(\w+)\s*\(\)\s*\{\s*return (_\w+)\.(\w+);/g;
let getters = 0;
for (const [, name, variable, member] of text.matchAll(GETTER)) {
  const packageName = packages.get(variable);
  if (packageName === undefined) break;
  Object.defineProperty(exports, name, { enumerable: true, get: () => require(packageName)[member] });
  getters += 1;
}

const exported = (text.match(/return _\w+\.\w+;/g) ?? []).length;
const required = (text.match(/require\(/g) ?? []).length;
if (getters !== exported || packages.size !== required) {
  throw new Error(
    `test/support/fluent-components-on-demand.js read ${getters} of ${exported} exports and ${packages.size} of ${required} packages from ${INDEX}: its layout changed; update the reader.`,
  );
}
