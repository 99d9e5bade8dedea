// Where the gateway keeps its data, from one setting: a Postgres URL, or a directory for PGlite.
import { openPGliteDatabase } from "./pglite-database";
import { openPostgresDatabase } from "./postgres-database";
import type { SqlDatabase } from "./sql-database";

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/**
 * `postgres://…` or `postgresql://…`: that Postgres database. "memory://": an in-memory PGlite
 * (tests). Anything else: a directory PGlite keeps its data in (created if missing).
 */
export async function openDatabase(spec: string): Promise<SqlDatabase> {
  if (spec.trim() === "")
    throw new Error("The database setting is empty: give a directory or a postgres:// URL.");
  return POSTGRES_URL.test(spec) ? openPostgresDatabase(spec) : openPGliteDatabase(spec);
}

/** The setting as it may be shown in a message: a URL's password is masked. */
export function describeDatabase(spec: string): string {
  if (!POSTGRES_URL.test(spec)) return spec;
  try {
    const url = new URL(spec);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "the Postgres URL given";
  }
}
