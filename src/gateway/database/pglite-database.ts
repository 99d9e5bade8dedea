// PGlite: Postgres compiled to WASM, running in this process on a directory (or in memory). It
// has one connection, so a dedicated session is the database itself.
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { lockDirectory } from "./directory-lock";
import type { SqlDatabase, SqlSession } from "./sql-database";

type PGliteConnection = Pick<PGlite, "query" | "exec"> | Transaction;

function sessionOf(connection: PGliteConnection): SqlSession {
  return {
    query: async <Row extends object>(sql: string, params: readonly unknown[] = []) =>
      (await connection.query<Row>(sql, [...params])).rows,
    execute: async (script) => {
      await connection.exec(script);
    },
  };
}

/** `directory`: a folder (created if missing, and locked to this process) or "memory://". */
export async function openPGliteDatabase(directory: string): Promise<SqlDatabase> {
  const unlock = directory === "memory://" ? () => undefined : lockDirectory(directory);
  let pglite: PGlite;
  try {
    pglite = new PGlite(directory);
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const session = sessionOf(pglite);
  return {
    kind: "pglite",
    ...session,
    transaction: (work) => pglite.transaction((transaction) => work(sessionOf(transaction))),
    dedicated: (work) => work(session),
    close: async () => {
      try {
        await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}
