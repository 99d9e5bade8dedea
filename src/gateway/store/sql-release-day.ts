// The release day in the settings table, beside the token secret: one row every instance reads.
import type { SqlDatabase } from "../database/sql-database";
import { releaseBusinessDayOf } from "../members/allowance-period";
import type { ReleaseDaySetting } from "./gateway-store";

const SETTING = "release_day";

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
      // The value before is read under the row's lock: two instances starting together each
      // learn what they replaced.
      database.transaction(async (session) => {
        const [row] = await session.query<{ value: string }>(
          "select value from settings where name = $1 for update",
          [SETTING],
        );
        await session.query(
          "insert into settings (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value",
          [SETTING, String(day)],
        );
        return row?.value ?? null;
      }),
  };
}
