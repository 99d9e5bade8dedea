// A PGlite directory as PGlite leaves it when it creates a database there (its initdb run, no
// migration yet), for the tests that start a gateway's store from nothing. Creating one costs
// about 6 CPU-seconds (initdb in WASM) and copying one about 0.5, so the integration lane's
// global setup finds or makes one template and each such test copies it. The template is kept
// in node_modules/.cache by PGlite's version (initdb writes the same database for the same
// PGlite), so only a fresh clone's first run, or a new PGlite, pays for initdb, which would
// otherwise hold up every test of the run for about 4 s. A test run without that setup (a file
// run from another lane's command) gets an empty folder: PGlite creates the database itself,
// only slower. test/gateway/gateway-cli.integration.test.ts keeps the path where the gateway
// creates its database in a folder that does not exist yet.
//
// A copy asks for a smaller buffer pool than PGlite's 128 MB (TEST_SETTINGS): PGlite zeroes
// its whole shared memory at every start, about a third of an open's 0.5 CPU-seconds with
// 128 MB (measured), and the tests open these directories about forty times a run
// (every admin command opens its database). A test's database holds a few hundred rows;
// what the gateway stores and how it locks do not depend on the pool's size.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import path from "node:path";

export const PGLITE_TEMPLATE_VARIABLE = "PCD_TEST_PGLITE_TEMPLATE";

const CACHE = path.resolve(__dirname, "../../../node_modules/.cache");

/** The installed PGlite's version (its package does not export package.json). */
function pgliteVersion(): string {
  const entry = require.resolve("@electric-sql/pglite");
  const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** The run's template (global setup): the kept one, else a new one kept from now on. */
export async function pgliteTemplate(): Promise<string> {
  const folder = path.join(CACHE, `pcd-pglite-template-${pgliteVersion()}`);
  // Made elsewhere and renamed into place once initdb has finished: never found half-made.
  const made = (): boolean => existsSync(path.join(folder, "PG_VERSION"));
  if (made()) return folder;
  mkdirSync(CACHE, { recursive: true });
  const making = mkdtempSync(path.join(CACHE, "pcd-pglite-template-making-"));
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const database = new PGlite(making);
    await database.waitReady;
    await database.close();
    try {
      renameSync(making, folder);
    } catch (error) {
      // Another run kept its template meanwhile: that one serves.
      if (!made()) throw error;
    }
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return folder;
}

/** Postgres settings of the tests' databases, as ALTER SYSTEM would keep them. */
export const TEST_SETTINGS = { shared_buffers: "16MB" } as const;

/**
 * `directory` (made if missing) holding a new database: the run's template's copy with the
 * TEST_SETTINGS, if there is a template.
 */
export function newPGliteDirectory(directory: string): string {
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (template) {
    cpSync(template, directory, { recursive: true, errorOnExist: true, force: false });
    const lines = Object.entries(TEST_SETTINGS).map(([name, value]) => `${name} = '${value}'\n`);
    appendFileSync(path.join(directory, "postgresql.auto.conf"), lines.join(""));
  } else {
    mkdirSync(directory, { recursive: true });
  }
  return directory;
}
