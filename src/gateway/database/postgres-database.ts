// Postgres through node-postgres pools, for several gateway instances sharing one database.
import pg from "pg";
import type { SqlDatabase, SqlSession } from "./sql-database";

function sessionOf(connection: pg.Pool | pg.PoolClient): SqlSession {
  return {
    query: async <Row extends object>(sql: string, params: readonly unknown[] = []) =>
      (await connection.query<Row>(sql, [...params])).rows,
    execute: async (script) => {
      // Without parameters node-postgres sends the simple protocol, which takes several statements.
      await connection.query(script);
    },
  };
}

export function openPostgresDatabase(url: string): SqlDatabase {
  const pool = new pg.Pool({ connectionString: url });
  // Dedicated sessions hold their connection while their work runs queries through `pool`: from
  // a pool of their own, so holders never take every connection their work waits for.
  const dedicatedPool = new pg.Pool({ connectionString: url });
  // An idle connection that drops (server restart) emits here; the next query opens a new one
  // and reports its own error, so there is nothing to do but not crash the process.
  const ignore = (): void => undefined;
  pool.on("error", ignore);
  dedicatedPool.on("error", ignore);

  async function onClientOf<T>(from: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await from.connect();
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection whose work failed is closed, not reused: whatever it held (a transaction
      // left open, a session lock) ends with it.
      client.release(broken);
    }
  }

  return {
    kind: "postgres",
    ...sessionOf(pool),
    transaction: (work) =>
      onClientOf(pool, async (client) => {
        await client.query("begin");
        const result = await work(sessionOf(client));
        await client.query("commit");
        return result;
      }),
    dedicated: (work) => onClientOf(dedicatedPool, (client) => work(sessionOf(client))),
    close: async () => {
      await Promise.all([pool.end(), dedicatedPool.end()]);
    },
  };
}
