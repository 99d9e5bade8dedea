// The SQL store on a real Postgres: the same checks as on PGlite, and what only Postgres has to
// do: two gateway instances (two pools) on one database, never buying one key at once and never
// both migrating.
import { migrate, MIGRATIONS } from "../../../src/gateway/database/migrations";
import { openDatabase } from "../../../src/gateway/database/open-database";
import type { SqlDatabase } from "../../../src/gateway/database/sql-database";
import type { GatewayStore } from "../../../src/gateway/store/gateway-store";
import { openGatewayStore, sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import {
  POSTGRES_MISSING,
  postgresInstalled,
  postgresRequired,
  startTestPostgres,
  type TestPostgres,
} from "../support/postgres";
import { storeChecks, type StoreUnderTest } from "./store-checks";

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Resolves once `count` sessions wait for an advisory lock; fails after `attempts` looks. */
async function untilWaitingForLocks(database: SqlDatabase, count: number, attempts = 500): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const [row] = await database.query<{ waiting: number }>(
      `select count(*)::integer as waiting from pg_locks
       where locktype = 'advisory' and not granted
         and database = (select oid from pg_database where datname = current_database())`,
    );
    if ((row?.waiting ?? 0) >= count) return;
  }
  throw new Error(`No session waited for an advisory lock after ${attempts} looks.`);
}

if (!postgresInstalled() && !postgresRequired()) {
  test.skip(`Postgres store checks (skipped: ${POSTGRES_MISSING})`, () => undefined);
} else {
  let postgres: TestPostgres | null = null;
  let subject: StoreUnderTest;
  /** A second gateway instance: a store with its own pools on the same database. */
  let other: GatewayStore;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    if (postgres === null) throw new Error(POSTGRES_MISSING);
    const database = await openDatabase(postgres.url);
    await migrate(database);
    subject = { database, store: sqlGatewayStore(database) };
    other = await openGatewayStore(postgres.url);
  }, 60_000);

  afterAll(async () => {
    await subject?.store.close();
    await other?.close();
    await postgres?.drop();
  });

  storeChecks(() => subject);

  test("two instances starting at once on an empty database apply each migration once", async () => {
    const empty = await startTestPostgres();
    if (empty === null) throw new Error(POSTGRES_MISSING);
    try {
      const stores = await Promise.all([openGatewayStore(empty.url), openGatewayStore(empty.url)]);
      await Promise.all(stores.map((store) => store.close()));
      const database = await openDatabase(empty.url);
      try {
        const rows = await database.query<{ version: number }>("select version from schema_migrations");
        expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
        // A third instance opening later has nothing to apply.
        expect(await migrate(database)).toEqual([]);
      } finally {
        await database.close();
      }
    } finally {
      await empty.drop();
    }
  });

  test("the second instance's work on an overlapping key starts only after the first's ends", async () => {
    const events: string[] = [];
    const firstStarted = deferred();
    const finishFirst = deferred();
    const first = subject.store.locks.withLocks(["pcd|A", "pcd|B"], async () => {
      events.push("first started");
      firstStarted.resolve();
      await finishFirst.promise;
      events.push("first ended");
    });
    await firstStarted.promise;
    const second = other.locks.withLocks(["pcd|C", "pcd|B"], async () => {
      events.push("second started");
    });
    // The second instance is now blocked in Postgres on pcd|B, not merely not yet scheduled.
    await untilWaitingForLocks(subject.database, 1);
    expect(events).toEqual(["first started"]);
    finishFirst.resolve();
    await Promise.all([first, second]);
    expect(events).toEqual(["first started", "first ended", "second started"]);
  });

  test("work on keys that do not overlap runs while another instance holds its keys", async () => {
    const finishFirst = deferred();
    const firstStarted = deferred();
    const first = subject.store.locks.withLocks(["pcd|A"], async () => {
      firstStarted.resolve();
      await finishFirst.promise;
    });
    await firstStarted.promise;
    expect(await other.locks.withLocks(["pcd|Z"], async () => "ran")).toBe("ran");
    finishFirst.resolve();
    await first;
  });

  test("holds asked of two instances at once never together pass the member's budget", async () => {
    await subject.database.execute("truncate budget_holds, purchase_codes, purchases");
    const at = new Date("2026-11-15T12:00:00Z");
    const ask = (store: GatewayStore) =>
      store.holds.hold({
        member: "ann@example.com",
        product: "pcd",
        budget: 5,
        needed: new Map([["PPI", 1]]),
        at,
        period: { start: new Date("2026-11-04T12:00:00Z"), end: new Date("2026-12-03T12:00:00Z") },
        expiresAt: new Date("2026-11-15T12:30:00Z"),
      });
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, index) => ask(index % 2 === 0 ? subject.store : other)),
    );
    expect(outcomes.filter((outcome) => "held" in outcome)).toHaveLength(5);
    expect(outcomes.filter((outcome) => "over" in outcome)).toHaveLength(11);
    const [row] = await subject.database.query<{ requests: number }>(
      "select sum(requests)::integer as requests from budget_holds",
    );
    expect(row?.requests).toBe(5);
  });

  test("two instances keeping release days at once on a fresh database: the second learns the first's", async () => {
    for (let run = 0; run < 5; run += 1) {
      await subject.database.query("delete from settings where name = 'release_day'");
      const replaced = await Promise.all([subject.store.releaseDay.replace(3), other.releaseDay.replace(5)]);
      const kept = await subject.store.releaseDay.get();
      // Whichever wrote first saw none; the other saw its day, and its own is kept.
      expect(replaced.filter((before) => before === null)).toHaveLength(1);
      expect(replaced).toContain(kept === 3 ? "5" : "3");
    }
    await subject.database.query("delete from settings where name = 'release_day'");
  });

  test("callers taking the same keys in opposite orders all finish (locks are taken in one order)", async () => {
    const keys = ["pcd|K1", "pcd|K2", "pcd|K3", "pcd|K4"];
    const reversed = [...keys].reverse();
    let inside = 0;
    let mostInside = 0;
    const work = async (): Promise<void> => {
      inside += 1;
      mostInside = Math.max(mostInside, inside);
      // Give the other callers every chance to run while this one is inside.
      await subject.database.query("select 1");
      inside -= 1;
    };
    const calls = Array.from({ length: 8 }, (_, index) =>
      (index % 2 === 0 ? subject.store : other).locks.withLocks(index % 2 === 0 ? keys : reversed, work),
    );
    await Promise.all(calls);
    expect(mostInside).toBe(1);
  });
}
