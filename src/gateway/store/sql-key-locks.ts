// Keys' locks across gateway instances. On Postgres: session advisory locks on one dedicated
// connection, taken in the order of their lock numbers, so two callers wanting overlapping keys
// never hold one each while waiting for the other's. PGlite serves one process, which already
// buys each key once at a time, so the work runs as is.
import type { SqlDatabase } from "../database/sql-database";
import type { KeyLocks } from "./gateway-store";

export function sqlKeyLocks(database: SqlDatabase): KeyLocks {
  if (database.kind === "pglite") return { withLocks: (_keys, work) => work() };
  return {
    withLocks: (keys, work) =>
      database.dedicated(async (session) => {
        // Lock numbers as text: node-postgres gives 64-bit integers as strings anyway.
        const locks = await session.query<{ lock: string }>(
          `select distinct hashtextextended(key, 0)::text as lock, hashtextextended(key, 0) as sort_by
           from unnest($1::text[]) as given (key) order by sort_by`,
          [[...keys]],
        );
        try {
          for (const { lock } of locks) await session.query("select pg_advisory_lock($1::bigint)", [lock]);
          return await work();
        } finally {
          // Should this fail, the dedicated connection is closed (an error passes through), and
          // Postgres frees a closed session's locks.
          await session.query("select pg_advisory_unlock_all()");
        }
      }),
  };
}
