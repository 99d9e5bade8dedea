// The gateway's schema, as numbered migrations applied in order. A migration, once released, is
// never edited: a change is a new migration at the end of the list.
import type { SqlDatabase } from "./sql-database";

export const MIGRATIONS: readonly string[] = [
  `
  create table members (
    email text primary key,
    password_hash text not null,
    admin boolean not null default false,
    budget integer check (budget >= 0),
    created_at timestamptz not null default now()
  );
  create table answers (
    key text primary key,
    record jsonb not null,
    fingerprint text not null,
    bought_at timestamptz not null
  );
  create table purchases (
    id bigserial primary key,
    at timestamptz not null,
    product text not null,
    operation text not null
  );
  -- A purchase's time and product are copied onto its codes: a member's budget is checked on
  -- every request, and this way the check is one range of one index.
  create table purchase_codes (
    purchase_id bigint not null references purchases (id) on delete cascade,
    at timestamptz not null,
    product text not null,
    key text not null,
    code text not null,
    dataset text not null,
    member text not null
  );
  create index purchase_codes_by_member on purchase_codes (member, product, dataset, at);
  create index purchase_codes_by_time on purchase_codes (at);
  create table served (
    at timestamptz not null,
    member text not null,
    product text not null,
    operation text not null,
    code text not null,
    dataset text not null,
    source text not null check (source in ('cache', 'purchase'))
  );
  create index served_by_time on served (at);
  create table settings (
    name text primary key,
    value text not null
  );
  `,
  `
  alter table members add column blocked boolean not null default false;
  create table api_keys (
    name text primary key,
    secret_hash text not null unique,
    budget integer check (budget >= 0),
    created_at timestamptz not null,
    revoked_at timestamptz
  );
  `,
  // The id of a member's current credentials, carried in their tokens: replacing the password,
  // or removing the member and adding them again, gives a new one and ends the old tokens.
  `
  alter table members add column credentials_id text not null default gen_random_uuid()::text;
  `,
  // What members' requests in flight hold of their budgets, seen by every instance.
  `
  create table budget_holds (
    id text not null,
    member text not null,
    product text not null,
    dataset text not null,
    requests integer not null check (requests > 0),
    expires_at timestamptz not null,
    primary key (id, dataset)
  );
  create index budget_holds_by_member on budget_holds (member, product, dataset);
  `,
  // Sign-in attempts per address and name, counted by every instance together.
  `
  create table sign_in_attempts (
    key text primary key,
    window_ends timestamptz not null,
    attempts integer not null check (attempts > 0)
  );
  create index sign_in_attempts_by_end on sign_in_attempts (window_ends);
  `,
  `
  create table catalog_copies (
    product text primary key,
    body text not null,
    read_at timestamptz not null
  );
  `,
  // A hold's codes are settled one by one as their purchases are audited: a dataset's count may
  // reach 0 before the hold is released.
  `
  alter table budget_holds drop constraint budget_holds_requests_check;
  alter table budget_holds add constraint budget_holds_requests_check check (requests >= 0);
  `,
];

// Any constant both instances agree on: the key of the transaction lock migrations run under.
const MIGRATION_LOCK = 7_411_502_913;

/**
 * Applies the migrations this database has not recorded yet, all in one transaction. Two
 * instances starting at once on one Postgres queue on the lock: the second finds every
 * migration recorded and applies none.
 */
export async function migrate(
  database: SqlDatabase,
  migrations: readonly string[] = MIGRATIONS,
): Promise<number[]> {
  return database.transaction(async (session) => {
    await session.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await session.execute(
      "create table if not exists schema_migrations (version integer primary key, applied_at timestamptz not null default now())",
    );
    const rows = await session.query<{ version: number }>("select version from schema_migrations");
    const recorded = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const [index, script] of migrations.entries()) {
      const version = index + 1;
      if (recorded.has(version)) continue;
      await session.execute(script);
      await session.query("insert into schema_migrations (version) values ($1)", [version]);
      applied.push(version);
    }
    return applied;
  });
}
