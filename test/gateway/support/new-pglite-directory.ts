// A PGlite directory as PGlite leaves it when it creates a database there (its initdb run, no
// migration yet), for the tests that start a gateway's store from nothing. Creating one costs
// about 5.5 CPU-seconds (initdb in WASM) and copying one about 0.2, so the integration lane's
// global setup creates one per Jest run and each such test copies it. A test run without that
// setup (a file run from another lane's command) gets an empty folder: PGlite creates the
// database itself, only slower. test/gateway/gateway-cli.integration.test.ts keeps the path
// where the gateway creates its database in a folder that does not exist yet.
import { cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const PGLITE_TEMPLATE_VARIABLE = "PCD_TEST_PGLITE_TEMPLATE";

/** Creates the run's template (global setup); returns its folder. */
export async function createPGliteTemplate(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const folder = mkdtempSync(path.join(tmpdir(), "pcd-pglite-template-"));
  const database = new PGlite(folder);
  await database.waitReady;
  await database.close();
  return folder;
}

/** `directory` (made if missing) holding a new database: the run's template's copy, if any. */
export function newPGliteDirectory(directory: string): string {
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (template) cpSync(template, directory, { recursive: true, errorOnExist: true, force: false });
  else mkdirSync(directory, { recursive: true });
  return directory;
}
