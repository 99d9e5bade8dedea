// The release day in the settings table, beside the token secret: one row every instance reads.
import type { SqlDatabase } from "../database/sql-database";
import { releaseBusinessDayOf } from "../members/release-day";
import type { ReleaseDaySetting } from "./gateway-store";

const SETTING = "release_day";
/** An advisory lock key of its own (a single 64-bit key; keys' locks use hashes, budgets two numbers). */
const RELEASE_DAY_LOCK = 1_347_634_243;

export function sqlReleaseDay(database: SqlDatabase): ReleaseDaySetting {
  return {
    async get() {
      const [row] = await database.query<{ value: string }>("select value from settings where name = $1", [
        SETTING,
      ]);
      if (row === undefined) return null;
      const day = releaseBusinessDayOf(row.value);
      if (day === null)
        throw new Error(
          `The database keeps a release day that is not one ('${row.value.slice(0, 20)}'): start the gateway with --release-day N to replace it.`,
        );
      return day;
    },
    replace: (day) =>
      // The value before is read under a lock: two instances starting together each learn what
      // they replaced.
      database.transaction(async (session) => {
        // A lock that needs no row: with none kept yet, two first starts would both read none.
        await session.query(`select pg_advisory_xact_lock(${RELEASE_DAY_LOCK})`);
        const [row] = await session.query<{ value: string }>("select value from settings where name = $1", [
          SETTING,
        ]);
        await session.query(
          "insert into settings (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value",
          [SETTING, String(day)],
        );
        return row?.value ?? null;
      }),
  };
}
