// Sign-in attempts in the `sign_in_attempts` table, so that every gateway instance on one
// database counts against the same limit: behind a load balancer, counts kept per instance would
// let a password be guessed as many times faster as there are instances. A key (client address
// and name) is kept as its SHA-256: the table holds no address or name in plain text, and a
// name of any length makes a key of one length (a long one would pass the index's limit, and the
// sign-in would fail).
import { createHash } from "node:crypto";
import type { SqlDatabase } from "../database/sql-database";
import type { AttemptCounts } from "./gateway-store";

/** Windows that ended are deleted at most this often (the table stays the size of a few minutes' keys). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** The key as the table keeps it. */
export function keyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function sqlAttemptCounts(database: SqlDatabase): AttemptCounts {
  let nextSweep = Number.NEGATIVE_INFINITY;
  return {
    async count(key, windowMs, at) {
      if (at.getTime() >= nextSweep) {
        nextSweep = at.getTime() + SWEEP_EVERY_MS;
        await database.query("delete from sign_in_attempts where window_ends <= $1", [at.toISOString()]);
      }
      // One statement: two instances counting one key at once each see the other's attempt.
      const [row] = await database.query<{ attempts: number; window_ends: Date | string }>(
        `insert into sign_in_attempts as counted (key, window_ends, attempts) values ($1, $2, 1)
         on conflict (key) do update set
           attempts = case when counted.window_ends <= $3 then 1 else counted.attempts + 1 end,
           window_ends = case when counted.window_ends <= $3 then excluded.window_ends else counted.window_ends end
         returning attempts, window_ends`,
        [keyHash(key), new Date(at.getTime() + windowMs).toISOString(), at.toISOString()],
      );
      if (row === undefined) throw new Error("The database did not return the attempt it counted.");
      return { attempts: row.attempts, windowEnds: new Date(row.window_ends) };
    },
    async uncount(key, at) {
      // One statement, so that an attempt counted meanwhile is not lost: a count of one is the
      // window's only attempt, and its row goes (the next attempt starts a window of its own).
      await database.query(
        `with emptied as (
           delete from sign_in_attempts where key = $1 and window_ends > $2 and attempts = 1
         )
         update sign_in_attempts set attempts = attempts - 1
         where key = $1 and window_ends > $2 and attempts > 1`,
        [keyHash(key), at.toISOString()],
      );
    },
  };
}
