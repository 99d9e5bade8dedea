// The release day in the settings table, beside the token secret: one row every instance reads.
import type { SqlDatabase } from "../database/sql-database";
import { MAX_RELEASE_BUSINESS_DAY } from "../members/allowance-period";
import type { ReleaseDaySetting } from "./gateway-store";

const SETTING = "release_day";

export function sqlReleaseDay(database: SqlDatabase): ReleaseDaySetting {
  return {
    async get() {
      const [row] = await database.query<{ value: string }>("select value from settings where name = $1", [
        SETTING,
      ]);
      const day = Number(row?.value);
      return Number.isInteger(day) && day >= 1 && day <= MAX_RELEASE_BUSINESS_DAY ? day : null;
    },
    async set(day) {
      await database.query(
        "insert into settings (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value",
        [SETTING, String(day)],
      );
    },
  };
}
