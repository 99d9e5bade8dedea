// Where the test lanes keep the emulator's generated catalogs (src/emulator/kept-catalogs.ts):
// a folder named by a hash of every file under src/emulator, so a change to the generator (or
// to anything beside it) starts a new folder and no test reads a catalog an older generator
// made. Folders of other hashes are deleted when a new one is named.
"use strict";
const { createHash } = require("node:crypto");
const { readdirSync, readFileSync, rmSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const parent = path.join(root, "node_modules", ".cache", "pcd-emulator-catalogs");

function emulatorCatalogFolder() {
  const sources = path.join(root, "src", "emulator");
  const files = readdirSync(sources, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(path.relative(sources, file)).update("\0").update(readFileSync(file));
  const name = hash.digest("hex").slice(0, 16);
  let others = [];
  try {
    others = readdirSync(parent).filter((entry) => entry !== name);
  } catch {
    // No folder yet.
  }
  for (const other of others) rmSync(path.join(parent, other), { recursive: true, force: true });
  return path.join(parent, name);
}

module.exports = { emulatorCatalogFolder };
