// The secret member tokens are signed with. The first instance to ask makes it; every other
// instance reads the same row, so a token from one instance is good at all of them.
import { randomBytes } from "node:crypto";
import type { SqlDatabase } from "../database/sql-database";

const SETTING = "token_secret";

export async function readTokenSecret(database: SqlDatabase): Promise<Uint8Array> {
  await database.query("insert into settings (name, value) values ($1, $2) on conflict (name) do nothing", [
    SETTING,
    randomBytes(32).toString("base64"),
  ]);
  const [row] = await database.query<{ value: string }>("select value from settings where name = $1", [
    SETTING,
  ]);
  if (row === undefined) throw new Error("The token secret could not be read back from the database.");
  return new Uint8Array(Buffer.from(row.value, "base64"));
}
