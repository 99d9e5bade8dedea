// The checks every SQL store passes, on PGlite and on Postgres alike: each test file opens its
// database once and calls storeChecks with it.
import type { SqlDatabase } from "../../../src/gateway/database/sql-database";
import { scryptHashing } from "../../../src/gateway/members/password-hash";
import type {
  BudgetHoldRequest,
  GatewayStore,
  Purchase,
  ServedAnswer,
  TimeRange,
} from "../../../src/gateway/store/gateway-store";
import { sqlGatewayStore } from "../../../src/gateway/store/sql-gateway-store";
import { allowancePeriodNamed } from "../../../src/gateway/members/allowance-period";
import { keyHash, sqlAttemptCounts } from "../../../src/gateway/store/sql-attempt-counts";

export interface StoreUnderTest {
  /** The store as the gateway makes it: its hashing is checked; the other checks use the database. */
  store: GatewayStore;
  /** The store's database, to read rows as they are kept. */
  database: SqlDatabase;
}

const PASSWORD = "correct horse battery staple";

// The checks save members at a low scrypt cost: they save about thirty, a hash at the gateway's
// cost takes about 0.15 CPU-seconds, and only the first check is about the hash itself (it
// saves through the subject's store, which hashes as the gateway does).
const CHEAP_PASSWORDS = scryptHashing(2 ** 10);

function purchase(
  at: string,
  product: string,
  codes: Array<[code: string, dataset: string, member: string]>,
): Purchase {
  return {
    at: new Date(at),
    product,
    operation: "series_values",
    codes: codes.map(([code, dataset, member]) => ({
      key: `live|${product}|series_values|${code}|c=|u=`,
      code,
      dataset,
      member,
    })),
  };
}

function served(
  at: string,
  member: string,
  code: string,
  dataset: string,
  source: ServedAnswer["source"],
): ServedAnswer {
  return { at: new Date(at), member, product: "pcd", operation: "series_values", code, dataset, source };
}

export function storeChecks(subject: () => StoreUnderTest): void {
  const cheapStores = new WeakMap<SqlDatabase, GatewayStore>();
  const store = (): GatewayStore => {
    const { database } = subject();
    const kept = cheapStores.get(database) ?? sqlGatewayStore(database, CHEAP_PASSWORDS);
    cheapStores.set(database, kept);
    return kept;
  };

  beforeEach(async () => {
    await subject().database.execute(
      "truncate members, api_keys, answers, purchases, purchase_codes, served, budget_holds, sign_in_attempts, catalog_copies",
    );
  });

  describe("members", () => {
    test("a password is kept only as a salted scrypt hash at the gateway's cost", async () => {
      const members = subject().store.members;
      await members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
      await members.save("bob@example.com", PASSWORD, { budget: null, admin: false });
      const rows = await subject().database.query<{ email: string; password_hash: string }>(
        "select email, password_hash from members order by email",
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
        expect(row.password_hash).not.toContain(PASSWORD);
        expect(row.password_hash).not.toContain(Buffer.from(PASSWORD).toString("base64"));
      }
      // The same password, two different salts: two different hashes.
      expect(rows[0]?.password_hash).not.toBe(rows[1]?.password_hash);
    });

    test.each([
      { case: "right password", email: "ann@example.com", password: PASSWORD, signsIn: true },
      {
        case: "name in other case, with spaces",
        email: "  Ann@Example.COM ",
        password: PASSWORD,
        signsIn: true,
      },
      {
        case: "wrong password",
        email: "ann@example.com",
        password: "correct horse battery stapl",
        signsIn: false,
      },
      {
        case: "password in other case",
        email: "ann@example.com",
        password: PASSWORD.toUpperCase(),
        signsIn: false,
      },
      { case: "unknown member", email: "nobody@example.com", password: PASSWORD, signsIn: false },
    ])("verify: $case", async ({ email, password, signsIn }) => {
      await store().members.save("ann@example.com", PASSWORD, { budget: 5, admin: false });
      const member = await store().members.verify(email, password);
      expect(member).toEqual(
        signsIn ? { email: "ann@example.com", admin: false, budget: 5, blocked: false } : null,
      );
    });

    test.each([
      { budget: null, admin: false },
      { budget: 0, admin: false },
      { budget: 40, admin: true },
      { budget: 2_147_483_647, admin: true },
    ])("budget $budget and admin $admin are kept as given", async (options) => {
      const saved = await store().members.save(" Cy@Example.com", PASSWORD, options);
      const expected = { email: "cy@example.com", ...options, blocked: false };
      expect(saved).toEqual(expected);
      expect(await store().members.find("cy@example.com")).toEqual(expected);
      expect(await store().members.list()).toEqual([expected]);
    });

    test("saving an existing member replaces the password, budget and role", async () => {
      await store().members.save("ann@example.com", PASSWORD, { budget: 5, admin: true });
      await store().members.save("ANN@example.com", "a new password", { budget: null, admin: false });
      expect(await store().members.list()).toEqual([
        { email: "ann@example.com", budget: null, admin: false, blocked: false },
      ]);
      expect(await store().members.verify("ann@example.com", PASSWORD)).toBeNull();
      expect(await store().members.verify("ann@example.com", "a new password")).not.toBeNull();
    });

    test("credentials: a new id with every password and after a removal; found only with the current one", async () => {
      const members = store().members;
      await members.save("ann@example.com", PASSWORD, { budget: 5, admin: false });
      const first = await members.credentials("Ann@example.com");
      expect(first).toEqual(expect.any(String));
      const ann = { email: "ann@example.com", admin: false, budget: 5, blocked: false };
      expect(await members.findWithCredentials("ann@example.com", first ?? "")).toEqual(ann);

      await members.save("ann@example.com", "a new password", { budget: 5, admin: false });
      const second = await members.credentials("ann@example.com");
      expect(second).not.toBe(first);
      expect(await members.findWithCredentials("ann@example.com", first ?? "")).toBeNull();
      expect(await members.findWithCredentials("ann@example.com", second ?? "")).toEqual(ann);

      await members.remove("ann@example.com");
      expect(await members.credentials("ann@example.com")).toBeNull();
      await members.save("ann@example.com", PASSWORD, { budget: 5, admin: false });
      const third = await members.credentials("ann@example.com");
      expect([first, second]).not.toContain(third);
      expect(await members.findWithCredentials("ann@example.com", second ?? "")).toBeNull();
      expect(await members.credentials("nobody@example.com")).toBeNull();
    });

    test("remove: the member is gone and can no longer sign in; removing again says so", async () => {
      await store().members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
      await store().members.save("bob@example.com", PASSWORD, { budget: null, admin: false });
      expect(await store().members.remove(" Ann@example.com")).toBe(true);
      expect(await store().members.find("ann@example.com")).toBeNull();
      expect(await store().members.verify("ann@example.com", PASSWORD)).toBeNull();
      expect(await store().members.remove("ann@example.com")).toBe(false);
      expect((await store().members.list()).map((member) => member.email)).toEqual(["bob@example.com"]);
    });

    test.each([
      { case: "an empty password", password: "", budget: null, message: /password cannot be empty/ },
      { case: "a negative budget", password: PASSWORD, budget: -1, message: /budget/ },
      { case: "a fractional budget", password: PASSWORD, budget: 1.5, message: /budget/ },
    ])("save refuses $case", async ({ password, budget, message }) => {
      await expect(
        store().members.save("ann@example.com", password, { budget, admin: false }),
      ).rejects.toThrow(message);
      expect(await store().members.list()).toEqual([]);
    });
  });

  describe("members added by organisation sign-in, and blocked members", () => {
    test("ensure adds a member without a password, budget or role, once; no password ever verifies", async () => {
      const added = await store().members.ensure("dan@example.com");
      expect(added).toEqual({ email: "dan@example.com", admin: false, budget: null, blocked: false });
      expect(await store().members.ensure("dan@example.com")).toEqual(added);
      expect(await store().members.list()).toEqual([added]);
      for (const password of ["none", "", PASSWORD]) {
        expect(await store().members.verify("dan@example.com", password)).toBeNull();
      }
    });

    test("ensure keeps an existing member as they are: password, budget and role", async () => {
      await store().members.save("ann@example.com", PASSWORD, { budget: 7, admin: true });
      expect(await store().members.ensure("ann@example.com")).toEqual({
        email: "ann@example.com",
        admin: true,
        budget: 7,
        blocked: false,
      });
      expect(await store().members.verify("ann@example.com", PASSWORD)).not.toBeNull();
    });

    test("setBlocked blocks and unblocks; saving a blocked member keeps the block; no such member: false", async () => {
      await store().members.save("ann@example.com", PASSWORD, { budget: null, admin: false });
      expect(await store().members.setBlocked("Ann@example.com", true)).toBe(true);
      expect((await store().members.find("ann@example.com"))?.blocked).toBe(true);
      await store().members.save("ann@example.com", "a new password", { budget: null, admin: false });
      expect((await store().members.verify("ann@example.com", "a new password"))?.blocked).toBe(true);
      expect(await store().members.setBlocked("ann@example.com", false)).toBe(true);
      expect((await store().members.find("ann@example.com"))?.blocked).toBe(false);
      expect(await store().members.setBlocked("nobody@example.com", true)).toBe(false);
    });
  });

  describe("API keys", () => {
    const CREATED = new Date("2026-11-10T15:00:00.000Z");
    const LATER = new Date("2026-11-12T09:30:00.000Z");

    test("a key is found by its hash while it works, and by name always; revoking stops it at once", async () => {
      const added = await store().keys.add("nightly", "a".repeat(64), { budget: 30, at: CREATED });
      expect(added).toEqual({ name: "nightly", budget: 30, createdAt: CREATED, revokedAt: null });
      expect(await store().keys.verify("a".repeat(64))).toEqual(added);
      expect(await store().keys.verify("b".repeat(64))).toBeNull();
      expect(await store().keys.verify("a".repeat(63))).toBeNull();
      expect(await store().keys.revoke("nightly", LATER)).toBe(true);
      expect(await store().keys.verify("a".repeat(64))).toBeNull();
      expect(await store().keys.find("nightly")).toEqual({ ...added, revokedAt: LATER });
      expect(await store().keys.revoke("nightly", LATER)).toBe(false);
      expect(await store().keys.revoke("unknown", LATER)).toBe(false);
    });

    test("a working key's name is refused to a new key; a revoked key's name is given to the new one", async () => {
      await store().keys.add("etl", "a".repeat(64), { budget: null, at: CREATED });
      await expect(store().keys.add("etl", "b".repeat(64), { budget: null, at: LATER })).rejects.toThrow(
        /A working key named etl exists/,
      );
      expect(await store().keys.verify("b".repeat(64))).toBeNull();
      await store().keys.revoke("etl", LATER);
      await store().keys.add("etl", "c".repeat(64), { budget: 5, at: LATER });
      expect(await store().keys.verify("a".repeat(64))).toBeNull();
      expect(await store().keys.verify("c".repeat(64))).toEqual({
        name: "etl",
        budget: 5,
        createdAt: LATER,
        revokedAt: null,
      });
      await store().keys.add("alpha", "d".repeat(64), { budget: null, at: CREATED });
      expect((await store().keys.list()).map((key) => key.name)).toEqual(["alpha", "etl"]);
    });
  });

  describe("answers", () => {
    const record = { code: "PPI-1", values: [{ date: "2026-10", value: 101.5 }], note: "ü ✓" };

    // The record comes back as JSON text of the same value (the database may space it otherwise).
    const recordOf = (answer: { recordJson: string } | undefined): unknown =>
      answer === undefined ? undefined : JSON.parse(answer.recordJson);

    test("put then get gives each answer back as kept; keys never put are absent", async () => {
      const boughtAt = new Date("2026-11-03T10:00:00.123Z");
      await store().answers.put([
        { key: "k1", recordJson: JSON.stringify(record), fingerprint: "f1", boughtAt },
        { key: "k2", recordJson: '[1,"two",null]', fingerprint: "f2", boughtAt },
      ]);
      const got = await store().answers.get(["k1", "k2", "k3"]);
      expect([...got.keys()].sort()).toEqual(["k1", "k2"]);
      expect(got.get("k1")).toEqual({
        key: "k1",
        recordJson: expect.any(String),
        fingerprint: "f1",
        boughtAt,
      });
      expect(recordOf(got.get("k1"))).toEqual(record);
      expect(recordOf(got.get("k2"))).toEqual([1, "two", null]);
      expect(await store().answers.get([])).toEqual(new Map());
    });

    test("putting a key again replaces its answer (the last of one batch wins)", async () => {
      await store().answers.put([
        { key: "k1", recordJson: '{"v":1}', fingerprint: "f1", boughtAt: new Date(1) },
      ]);
      await store().answers.put([
        { key: "k1", recordJson: '{"v":2}', fingerprint: "f2", boughtAt: new Date(2) },
        { key: "k1", recordJson: '{"v":3}', fingerprint: "f3", boughtAt: new Date(3) },
      ]);
      const got = (await store().answers.get(["k1"])).get("k1");
      expect(got).toEqual({
        key: "k1",
        recordJson: expect.any(String),
        fingerprint: "f3",
        boughtAt: new Date(3),
      });
      expect(recordOf(got)).toEqual({ v: 3 });
    });
  });

  describe("audit", () => {
    // Ann's PPI codes bought around the November 2026 allowance period's boundaries (its
    // release, 2026-11-04 06:00 US Central, and December's, 2026-12-03), and codes that are
    // someone else's, another dataset's or another product's.
    const purchases = [
      purchase("2026-11-04T11:59:59.999Z", "pcd", [["A1", "PPI", "ann@example.com"]]),
      purchase("2026-11-04T12:00:00.000Z", "pcd", [
        ["A2", "PPI", "ann@example.com"],
        ["A3", "PPI", "ann@example.com"],
        ["B1", "PPI", "bob@example.com"],
      ]),
      purchase("2026-12-03T11:59:59.999Z", "pcd", [
        ["A4", "PPI", "ann@example.com"],
        ["C1", "CPI", "ann@example.com"],
      ]),
      purchase("2026-11-15T12:00:00.000Z", "other", [["A5", "PPI", "ann@example.com"]]),
      purchase("2026-12-03T12:00:00.000Z", "pcd", [["A6", "PPI", "ann@example.com"]]),
    ];
    const period = (name: string): TimeRange => {
      const found = allowancePeriodNamed(name, 3);
      if (found === null) throw new Error(`no period ${name}`);
      return found;
    };
    const NOVEMBER = { start: "2026-11-04T12:00:00.000Z", end: "2026-12-03T12:00:00.000Z" };

    test.each([
      { period: "2026-10", member: "ann@example.com", product: "pcd", dataset: "PPI", count: 1 },
      { period: "2026-11", member: "ann@example.com", product: "pcd", dataset: "PPI", count: 3 },
      { period: "2026-11", member: "ann@example.com", product: "pcd", dataset: "CPI", count: 1 },
      { period: "2026-11", member: "ann@example.com", product: "other", dataset: "PPI", count: 1 },
      { period: "2026-11", member: "bob@example.com", product: "pcd", dataset: "PPI", count: 1 },
      { period: "2026-12", member: "ann@example.com", product: "pcd", dataset: "PPI", count: 1 },
      { period: "2027-01", member: "ann@example.com", product: "pcd", dataset: "PPI", count: 0 },
    ])("purchasedBy $member $product $dataset in the period $period: $count", async (row) => {
      for (const bought of purchases) await store().audit.recordPurchase(bought);
      expect(await store().audit.purchasedBy(row.member, row.product, row.dataset, period(row.period))).toBe(
        row.count,
      );
    });

    test("a period is a range: its first instant counts, the instant it ends does not", async () => {
      for (const bought of purchases) await store().audit.recordPurchase(bought);
      const november = { start: new Date(NOVEMBER.start), end: new Date(NOVEMBER.end) };
      expect(await store().audit.purchasedBy("ann@example.com", "pcd", "PPI", november)).toBe(3);
      const shifted = {
        start: new Date(november.start.getTime() + 1),
        end: new Date(november.end.getTime() + 1),
      };
      expect(await store().audit.purchasedBy("ann@example.com", "pcd", "PPI", shifted)).toBe(2);
    });

    test("usage: per member, product and dataset; its purchases sum to the codes bought in the period", async () => {
      for (const bought of purchases) await store().audit.recordPurchase(bought);
      await store().audit.recordServed([
        served("2026-11-05T00:00:00Z", "bob@example.com", "A2", "PPI", "cache"),
        served("2026-11-05T00:00:00Z", "bob@example.com", "A3", "PPI", "cache"),
        served("2026-11-05T00:00:00Z", "bob@example.com", "B1", "PPI", "purchase"),
        served("2026-11-06T00:00:00Z", "cy@example.com", "C1", "CPI", "cache"),
        served("2026-11-04T11:59:59Z", "cy@example.com", "C1", "CPI", "cache"),
      ]);
      const usage = await store().audit.usage(period("2026-11"));
      expect(usage).toEqual([
        { member: "ann@example.com", product: "other", dataset: "PPI", purchased: 1, fromCache: 0 },
        { member: "ann@example.com", product: "pcd", dataset: "CPI", purchased: 1, fromCache: 0 },
        { member: "ann@example.com", product: "pcd", dataset: "PPI", purchased: 3, fromCache: 0 },
        { member: "bob@example.com", product: "pcd", dataset: "PPI", purchased: 1, fromCache: 2 },
        { member: "cy@example.com", product: "pcd", dataset: "CPI", purchased: 0, fromCache: 1 },
      ]);
      const inNovember = purchases
        .filter((bought) => bought.at >= new Date(NOVEMBER.start) && bought.at < new Date(NOVEMBER.end))
        .reduce((sum, bought) => sum + bought.codes.length, 0);
      expect(usage.reduce((sum, row) => sum + row.purchased, 0)).toBe(inNovember);
      const [codes] = await subject().database.query<{ count: number }>(
        "select count(*)::integer as count from purchase_codes where at >= $1 and at < $2",
        [NOVEMBER.start, NOVEMBER.end],
      );
      expect(codes?.count).toBe(inNovember);
    });

    test("usage of a period with nothing recorded is empty", async () => {
      for (const bought of purchases) await store().audit.recordPurchase(bought);
      expect(await store().audit.usage(period("2025-01"))).toEqual([]);
    });

    test("a purchase without codes is recorded and counts nothing", async () => {
      await store().audit.recordPurchase(purchase("2026-11-05T00:00:00Z", "pcd", []));
      const [row] = await subject().database.query<{ count: number }>(
        "select count(*)::integer as count from purchases",
      );
      expect(row?.count).toBe(1);
      expect(await store().audit.usage(period("2026-11"))).toEqual([]);
    });
  });

  describe("release day", () => {
    const clear = () => subject().database.query("delete from settings where name = 'release_day'");
    beforeEach(clear);
    afterEach(clear);

    test("none until one is kept; replacing it says what was kept before", async () => {
      expect(await store().releaseDay.get()).toBeNull();
      expect(await store().releaseDay.replace(5)).toBeNull();
      expect(await store().releaseDay.get()).toBe(5);
      expect(await store().releaseDay.replace(3)).toBe("5");
      expect(await store().releaseDay.get()).toBe(3);
    });

    test("a kept value that is not a day is refused, naming the flag that replaces it", async () => {
      await store().releaseDay.replace(3);
      await subject().database.query("update settings set value = 'third' where name = 'release_day'");
      await expect(store().releaseDay.get()).rejects.toThrow(
        "The database keeps a release day that is not one ('third'): start the gateway with --release-day N to replace it.",
      );
      expect(await store().releaseDay.replace(4)).toBe("third");
      expect(await store().releaseDay.get()).toBe(4);
    });
  });

  describe("catalog copies", () => {
    test("a product's copy is kept and read back; an older one does not replace a newer one", async () => {
      const catalogs = store().catalogs;
      expect(await catalogs.get("energy_price")).toBeNull();
      const newer = { body: '[{"code":"1-1-1"}]', readAt: new Date("2026-11-15T12:05:00Z") };
      const older = { body: '[{"code":"9-9-9"}]', readAt: new Date("2026-11-15T12:00:00Z") };
      expect(await catalogs.put("energy_price", newer)).toBe(true);
      expect(await catalogs.put("energy_price", older)).toBe(false);
      expect(await catalogs.get("energy_price")).toEqual(newer);
      expect(await catalogs.get("commodity_price")).toBeNull();
      const latest = { body: "[]", readAt: new Date("2026-11-15T12:10:00Z") };
      expect(await catalogs.put("energy_price", latest)).toBe(true);
      expect(await catalogs.get("energy_price")).toEqual(latest);
    });

    test("a copy's read time is read alone", async () => {
      const catalogs = store().catalogs;
      expect(await catalogs.readAt("energy_price")).toBeNull();
      const copy = { body: '[{"code":"1-1-1"}]', readAt: new Date("2026-11-15T12:05:00Z") };
      await catalogs.put("energy_price", copy);
      expect(await catalogs.readAt("energy_price")).toEqual(copy.readAt);
      expect(await catalogs.readAt("commodity_price")).toBeNull();
    });
  });

  describe("sign-in attempts", () => {
    const at = (seconds: number): Date => new Date(Date.parse("2026-11-15T12:00:00Z") + seconds * 1000);
    const minute = 60_000;

    test("attempts count up within a window that starts with the key's first attempt, then start again", async () => {
      const attempts = store().attempts;
      const counted = [];
      for (const second of [0, 10, 59.999, 60, 61]) {
        const { attempts: count, windowEnds } = await attempts.count(
          "127.0.0.1|ann@example.com",
          minute,
          at(second),
        );
        counted.push([second, count, windowEnds.toISOString()]);
      }
      expect(counted).toEqual([
        [0, 1, at(60).toISOString()],
        [10, 2, at(60).toISOString()],
        [59.999, 3, at(60).toISOString()],
        [60, 1, at(120).toISOString()],
        [61, 2, at(120).toISOString()],
      ]);
    });

    test("each key has its own count", async () => {
      const attempts = store().attempts;
      await attempts.count("127.0.0.1|ann@example.com", minute, at(0));
      await attempts.count("127.0.0.1|ann@example.com", minute, at(1));
      expect((await attempts.count("127.0.0.1|bob@example.com", minute, at(2))).attempts).toBe(1);
      expect((await attempts.count("10.0.0.7|ann@example.com", minute, at(3))).attempts).toBe(1);
      expect((await attempts.count("127.0.0.1|ann@example.com", minute, at(4))).attempts).toBe(3);
    });

    test("windows that ended are deleted by a count ten minutes on", async () => {
      const { database } = subject();
      const attempts = sqlAttemptCounts(database);
      await attempts.count("127.0.0.1|ann@example.com", minute, at(0));
      const keys = async () =>
        (await database.query<{ key: string }>("select key from sign_in_attempts order by key")).map(
          (row) => row.key,
        );
      await attempts.count("127.0.0.1|bob@example.com", minute, at(9 * 60));
      expect(await keys()).toEqual(
        ["127.0.0.1|ann@example.com", "127.0.0.1|bob@example.com"].map(keyHash).sort(),
      );
      await attempts.count("127.0.0.1|cy@example.com", minute, at(10 * 60));
      expect(await keys()).toEqual([keyHash("127.0.0.1|cy@example.com")]);
    });

    test("a name of any length is counted, and the table holds no address or name", async () => {
      const long = `127.0.0.1|${"a".repeat(20_000)}@example.com`;
      expect((await store().attempts.count(long, minute, at(0))).attempts).toBe(1);
      expect((await store().attempts.count(long, minute, at(1))).attempts).toBe(2);
      const rows = await subject().database.query<{ key: string }>("select key from sign_in_attempts");
      expect(rows.map((row) => row.key)).toEqual([keyHash(long)]);
      expect(rows[0]?.key).toMatch(/^[0-9a-f]{64}$/);
    });

    test("an attempt taken back leaves the count one lower in its window, and no other key's; a count taken back to nothing is gone", async () => {
      const attempts = store().attempts;
      const key = "failed password checks from 203.0.113.7";
      const other = "127.0.0.1|ann@example.com";
      await attempts.uncount(key, at(0));
      expect((await attempts.count(key, minute, at(1))).attempts).toBe(1);
      await attempts.count(key, minute, at(2));
      await attempts.count(other, minute, at(2));
      await attempts.uncount(key, at(3));
      expect((await attempts.count(key, minute, at(4))).attempts).toBe(2);
      await attempts.uncount(key, at(5));
      await attempts.uncount(key, at(5));
      await attempts.uncount(key, at(5));
      // Nothing was left: the next attempt starts a window of its own.
      const fresh = await attempts.count(key, minute, at(6));
      expect([fresh.attempts, fresh.windowEnds.toISOString()]).toEqual([1, at(66).toISOString()]);
      expect((await attempts.count(other, minute, at(7))).attempts).toBe(2);
    });

    test("an attempt is not taken back once its window has ended", async () => {
      const { database } = subject();
      const attempts = store().attempts;
      const key = "failed password checks from 203.0.113.7";
      await attempts.count(key, minute, at(0));
      await attempts.count(key, minute, at(1));
      await attempts.uncount(key, at(60));
      const rows = await database.query<{ attempts: number }>("select attempts from sign_in_attempts");
      expect(rows.map((row) => row.attempts)).toEqual([2]);
    });

    test("attempts counted at once are each counted", async () => {
      const attempts = store().attempts;
      const counts = await Promise.all(
        Array.from({ length: 8 }, () => attempts.count("127.0.0.1|ann@example.com", minute, at(0))),
      );
      expect(counts.map((count) => count.attempts).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  });

  describe("budget holds", () => {
    const at = "2026-11-15T12:00:00.000Z";
    const request = (
      needed: Array<[string, number]>,
      options: Partial<Omit<BudgetHoldRequest, "needed">> = {},
    ): BudgetHoldRequest => ({
      member: "ann@example.com",
      product: "pcd",
      budget: 5,
      needed: new Map(needed),
      at: new Date(at),
      // The allowance period that holds `at`: from November's release to December's.
      period: { start: new Date("2026-11-04T12:00:00.000Z"), end: new Date("2026-12-03T12:00:00.000Z") },
      expiresAt: new Date("2026-11-15T12:30:00.000Z"),
      ...options,
    });
    const heldId = (outcome: unknown): string => {
      if (typeof outcome !== "object" || outcome === null || !("held" in outcome))
        throw new Error(`not held: ${JSON.stringify(outcome)}`);
      return String(outcome.held);
    };

    test("settling takes a dataset's codes off one hold; a settled or released hold's codes count no more", async () => {
      const holds = store().holds;
      const first = heldId(
        await holds.hold(
          request([
            ["PPI", 2],
            ["CPI", 1],
          ]),
        ),
      );
      heldId(await holds.hold(request([["PPI", 1]])));
      await holds.settle(first, "PPI", 1);
      expect(await holds.heldBy("ann@example.com", "pcd", new Date(at))).toEqual(
        new Map([
          ["PPI", 2],
          ["CPI", 1],
        ]),
      );
      await holds.settle(first, "PPI", 5);
      await holds.settle("no-such-hold", "PPI", 1);
      expect((await holds.heldBy("ann@example.com", "pcd", new Date(at))).get("PPI")).toBe(1);
      await holds.release(first);
      await holds.settle(first, "CPI", 1);
      expect(await holds.heldBy("ann@example.com", "pcd", new Date(at))).toEqual(new Map([["PPI", 1]]));
    });

    test("the period's purchases and the holds in flight count; over the budget names the dataset", async () => {
      await store().audit.recordPurchase(
        purchase("2026-11-04T12:00:00Z", "pcd", [
          ["A1", "PPI", "ann@example.com"],
          ["A2", "PPI", "ann@example.com"],
          ["B1", "PPI", "bob@example.com"],
        ]),
      );
      // The last period's purchase counts for nothing now, though it was made in November.
      await store().audit.recordPurchase(
        purchase("2026-11-04T11:59:00Z", "pcd", [["A0", "PPI", "ann@example.com"]]),
      );
      heldId(await store().holds.hold(request([["PPI", 2]])));
      expect(
        await store().holds.hold(
          request([
            ["CPI", 1],
            ["PPI", 2],
          ]),
        ),
      ).toEqual({
        over: { dataset: "PPI", left: 1, needed: 2 },
      });
      // A refusal holds nothing: CPI's budget is whole.
      heldId(await store().holds.hold(request([["CPI", 5]])));
      // Bob's, another product's: budgets of their own.
      heldId(await store().holds.hold(request([["PPI", 4]], { member: "bob@example.com" })));
      heldId(await store().holds.hold(request([["PPI", 5]], { product: "other" })));
    });

    test("a released hold counts no more; releasing it again changes nothing", async () => {
      const id = heldId(await store().holds.hold(request([["PPI", 5]])));
      expect(await store().holds.hold(request([["PPI", 1]]))).toEqual({
        over: { dataset: "PPI", left: 0, needed: 1 },
      });
      await store().holds.release(id);
      await store().holds.release(id);
      heldId(await store().holds.hold(request([["PPI", 5]])));
    });

    test("an expired hold (its instance crashed) counts no more and is deleted", async () => {
      heldId(await store().holds.hold(request([["PPI", 5]])));
      const later = {
        at: new Date("2026-11-15T12:30:00.000Z"),
        expiresAt: new Date("2026-11-15T13:00:00.000Z"),
      };
      heldId(await store().holds.hold(request([["PPI", 5]], later)));
      const rows = await subject().database.query<{ requests: number; expires_at: Date }>(
        "select requests, expires_at from budget_holds",
      );
      expect(rows.map((row) => [row.requests, new Date(row.expires_at).toISOString()])).toEqual([
        [5, "2026-11-15T13:00:00.000Z"],
      ]);
    });

    test("heldBy: the member's holds of a product not yet released nor expired, per dataset", async () => {
      heldId(
        await store().holds.hold(
          request([
            ["PPI", 2],
            ["CPI", 1],
          ]),
        ),
      );
      const released = heldId(await store().holds.hold(request([["PPI", 1]])));
      await store().holds.release(released);
      heldId(await store().holds.hold(request([["PPI", 2]])));
      heldId(await store().holds.hold(request([["PPI", 4]], { member: "bob@example.com" })));
      heldId(await store().holds.hold(request([["PPI", 4]], { product: "other" })));
      heldId(
        await store().holds.hold(request([["GDP", 3]], { expiresAt: new Date("2026-11-15T12:10:00.000Z") })),
      );
      expect(await store().holds.heldBy("ann@example.com", "pcd", new Date(at))).toEqual(
        new Map([
          ["PPI", 4],
          ["CPI", 1],
          ["GDP", 3],
        ]),
      );
      // Once its time has passed, a hold shows no more (before any check deletes it).
      expect(
        await store().holds.heldBy("ann@example.com", "pcd", new Date("2026-11-15T12:10:00.000Z")),
      ).toEqual(
        new Map([
          ["PPI", 4],
          ["CPI", 1],
        ]),
      );
      expect(await store().holds.heldBy("cy@example.com", "pcd", new Date(at))).toEqual(new Map());
    });

    test("a second store on the database (another instance) counts the first one's holds", async () => {
      const other = sqlGatewayStore(subject().database, CHEAP_PASSWORDS);
      const id = heldId(await store().holds.hold(request([["PPI", 3]])));
      expect(await other.holds.hold(request([["PPI", 3]]))).toEqual({
        over: { dataset: "PPI", left: 2, needed: 3 },
      });
      await store().holds.release(id);
      heldId(await other.holds.hold(request([["PPI", 3]])));
    });
  });

  test("the token secret is 32 bytes, the same for every store on the database", async () => {
    const secret = await store().tokenSecret();
    expect(secret).toHaveLength(32);
    expect(await store().tokenSecret()).toEqual(secret);
    // A second store on the same database (as a second instance would be) reads the same secret.
    expect(await sqlGatewayStore(subject().database).tokenSecret()).toEqual(secret);
  });

  test("withLocks answers what the work answers, and passes its failure on", async () => {
    expect(await store().locks.withLocks(["k1", "k2", "k1"], async () => "done")).toBe("done");
    await expect(
      store().locks.withLocks(["k1"], async () => {
        throw new Error("upstream failed");
      }),
    ).rejects.toThrow("upstream failed");
    // The keys are free again after a failure.
    expect(await store().locks.withLocks(["k1"], async () => "again")).toBe("again");
  });
}
