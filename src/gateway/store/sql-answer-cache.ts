// The answers the gateway bought, by key, in the `answers` table (the record as jsonb, read
// back as text: the database writes it out faster than JavaScript would).
import type { SqlDatabase } from "../database/sql-database";
import type { AnswerCache, CachedAnswer } from "./gateway-store";

interface AnswerRow {
  key: string;
  record_json: string;
  fingerprint: string;
  bought_at: Date;
}

export function sqlAnswerCache(database: SqlDatabase): AnswerCache {
  return {
    async get(keys) {
      if (keys.length === 0) return new Map();
      const rows = await database.query<AnswerRow>(
        "select key, record::text as record_json, fingerprint, bought_at from answers where key = any($1::text[])",
        [[...keys]],
      );
      return new Map(
        rows.map((row) => [
          row.key,
          {
            key: row.key,
            recordJson: row.record_json,
            fingerprint: row.fingerprint,
            boughtAt: new Date(row.bought_at),
          },
        ]),
      );
    },
    async put(answers) {
      // One row per key (the last given wins): one insert cannot update the same row twice.
      const byKey = new Map<string, CachedAnswer>(answers.map((answer) => [answer.key, answer]));
      if (byKey.size === 0) return;
      const list = [...byKey.values()];
      // Columns as arrays, so a batch is one statement whatever its size.
      await database.query(
        `insert into answers (key, record, fingerprint, bought_at)
         select key, record::jsonb, fingerprint, bought_at::timestamptz
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as given (key, record, fingerprint, bought_at)
         on conflict (key) do update
           set record = excluded.record, fingerprint = excluded.fingerprint, bought_at = excluded.bought_at`,
        [
          list.map((answer) => answer.key),
          list.map((answer) => answer.recordJson),
          list.map((answer) => answer.fingerprint),
          list.map((answer) => answer.boughtAt.toISOString()),
        ],
      );
    },
  };
}
