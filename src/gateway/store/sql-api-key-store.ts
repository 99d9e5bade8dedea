// API keys in the `api_keys` table, by the sha256 of their secret (api-keys/api-key.ts).
import { timingSafeEqual } from "node:crypto";
import type { SqlDatabase } from "../database/sql-database";
import type { ApiKey, ApiKeyStore } from "./gateway-store";
import { SharedLookups } from "./shared-lookups";

interface ApiKeyRow {
  name: string;
  budget: number | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const COLUMNS = "name, budget, created_at, revoked_at";

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  name: row.name,
  budget: row.budget,
  createdAt: new Date(row.created_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
});

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function sqlApiKeyStore(database: SqlDatabase): ApiKeyStore {
  const byName = new SharedLookups<ApiKey | null>();
  return {
    async add(name, secretHash, { budget, at }) {
      if (budget !== null && (!Number.isSafeInteger(budget) || budget < 0)) {
        throw new Error(`A budget is a whole number of data requests, 0 or more (not ${budget}).`);
      }
      const [row] = await database.query<ApiKeyRow>(
        `insert into api_keys (name, secret_hash, budget, created_at) values ($1, $2, $3, $4)
         on conflict (name) do update
           set secret_hash = excluded.secret_hash, budget = excluded.budget,
               created_at = excluded.created_at, revoked_at = null
           where api_keys.revoked_at is not null
         returning ${COLUMNS}`,
        [name, secretHash, budget, at.toISOString()],
      );
      if (row === undefined) throw new Error(`A working key named ${name} exists: revoke it first.`);
      return toApiKey(row);
    },
    async revoke(name, at) {
      const rows = await database.query(
        "update api_keys set revoked_at = $2 where name = $1 and revoked_at is null returning name",
        [name, at.toISOString()],
      );
      return rows.length > 0;
    },
    async list() {
      return (await database.query<ApiKeyRow>(`select ${COLUMNS} from api_keys order by name`)).map(toApiKey);
    },
    // Every request of a key's scripts asks this (member-access.ts).
    find(name) {
      return byName.get(name, async () => {
        const [row] = await database.query<ApiKeyRow>(`select ${COLUMNS} from api_keys where name = $1`, [
          name,
        ]);
        return row === undefined ? null : toApiKey(row);
      });
    },
    async verify(secretHash) {
      // Every working key's hash is compared in constant time (a team has a handful of keys),
      // rather than letting an index lookup answer sooner for a closer guess.
      const rows = await database.query<ApiKeyRow & { secret_hash: string }>(
        `select ${COLUMNS}, secret_hash from api_keys where revoked_at is null`,
      );
      let found: ApiKey | null = null;
      for (const row of rows) if (sameHash(row.secret_hash, secretHash)) found = toApiKey(row);
      return found;
    },
  };
}
