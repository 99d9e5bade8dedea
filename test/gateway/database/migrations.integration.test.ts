// Migrations on a PGlite directory: applied once, recorded, never again on the next open; a
// migration that fails leaves nothing behind; one process at a time on the directory.
import "../support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate, MIGRATIONS } from "../../../src/gateway/database/migrations";
import { openDatabase } from "../../../src/gateway/database/open-database";
import type { SqlDatabase } from "../../../src/gateway/database/sql-database";
import { openGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import { newPGliteDirectory } from "../support/new-pglite-directory";

let root: string;
let directory: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-migrations-"));
  directory = newPGliteDirectory(path.join(root, "store"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function versions(database: SqlDatabase): Promise<number[]> {
  const rows = await database.query<{ version: number }>(
    "select version from schema_migrations order by version",
  );
  return rows.map((row) => row.version);
}

const ALL = MIGRATIONS.map((_, index) => index + 1);

test("opening twice on one directory migrates once and keeps what was stored", async () => {
  const first = await openGatewayStore(directory);
  await first.members.save("ann@example.com", "a password", { budget: 3, admin: true });
  const secret = await first.tokenSecret();
  await first.close();

  const second = await openGatewayStore(directory);
  expect(await second.members.list()).toEqual([
    { email: "ann@example.com", budget: 3, admin: true, blocked: false },
  ]);
  expect(await second.tokenSecret()).toEqual(secret);
  await second.close();

  const database = await openDatabase(directory);
  try {
    expect(await versions(database)).toEqual(ALL);
    expect(await migrate(database)).toEqual([]);
  } finally {
    await database.close();
  }
}, 60_000);

test("a new migration is applied alone; one that fails leaves no trace", async () => {
  const database = await openDatabase(directory);
  try {
    const added = [...MIGRATIONS, "create table notes (body text not null)"];
    expect(await migrate(database, added)).toEqual([ALL.length + 1]);
    expect(await migrate(database, added)).toEqual([]);

    const failing = [...added, "create table drafts (body text); insert into no_such_table values (1);"];
    await expect(migrate(database, failing)).rejects.toThrow(/no_such_table/);
    expect(await versions(database)).toEqual([...ALL, ALL.length + 1]);
    const [drafts] = await database.query<{ found: string | null }>(
      "select to_regclass('drafts')::text as found",
    );
    expect(drafts?.found).toBeNull();
  } finally {
    await database.close();
  }
}, 60_000);

test("a directory open in this process is refused to a second opener until closed", async () => {
  const store = await openGatewayStore(directory);
  try {
    await expect(openGatewayStore(directory)).rejects.toThrow(`in use by process ${process.pid}`);
  } finally {
    await store.close();
  }
  const again = await openGatewayStore(directory);
  await again.close();
}, 60_000);
