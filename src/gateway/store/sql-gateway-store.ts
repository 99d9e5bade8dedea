// The gateway's store on a SQL database: PGlite in a directory, or a Postgres shared by several
// gateway instances.
import { migrate } from "../database/migrations";
import { openDatabase } from "../database/open-database";
import type { SqlDatabase } from "../database/sql-database";
import type { PasswordHashing } from "../members/password-hash";
import type { GatewayStore } from "./gateway-store";
import { sqlApiKeyStore } from "./sql-api-key-store";
import { sqlAttemptCounts } from "./sql-attempt-counts";
import { sqlAnswerCache } from "./sql-answer-cache";
import { sqlAuditLog } from "./sql-audit-log";
import { sqlBudgetHolds } from "./sql-budget-holds";
import { sqlCatalogCopies } from "./sql-catalog-copies";
import { sqlKeyLocks } from "./sql-key-locks";
import { sqlMemberStore } from "./sql-member-store";
import { sqlReleaseDay } from "./sql-release-day";
import { readTokenSecret } from "./token-secret";

/**
 * The store on a database already migrated; closing the store closes the database. `passwords`:
 * how members' passwords are hashed (the gateway's scrypt cost when absent).
 */
export function sqlGatewayStore(database: SqlDatabase, passwords?: PasswordHashing): GatewayStore {
  let secret: Promise<Uint8Array> | undefined;
  return {
    members: sqlMemberStore(database, passwords),
    keys: sqlApiKeyStore(database),
    answers: sqlAnswerCache(database),
    audit: sqlAuditLog(database),
    holds: sqlBudgetHolds(database),
    locks: sqlKeyLocks(database),
    attempts: sqlAttemptCounts(database),
    catalogs: sqlCatalogCopies(database),
    releaseDay: sqlReleaseDay(database),
    tokenSecret: () => {
      // Kept once read; a failed read is tried again next time.
      secret ??= readTokenSecret(database).catch((error: unknown) => {
        secret = undefined;
        throw error;
      });
      return secret;
    },
    close: () => database.close(),
  };
}

/** Opens the database `spec` names (see openDatabase) and brings its schema up to date. */
export async function openMigratedDatabase(spec: string): Promise<SqlDatabase> {
  const database = await openDatabase(spec);
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** The store on the database `spec` names, its schema brought up to date. */
export async function openGatewayStore(spec: string): Promise<GatewayStore> {
  return sqlGatewayStore(await openMigratedDatabase(spec));
}
