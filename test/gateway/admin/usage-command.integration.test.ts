// `usage` on a PGlite directory holding a month of purchases and cache hits.
import "../support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { usageCommand, type UsageReport } from "../../../src/gateway/admin/usage-command";
import type { Purchase, ServedAnswer } from "../../../src/gateway/store/gateway-store";
import { newPGliteDirectory } from "../support/new-pglite-directory";
import { KeptStores, runAdmin } from "./command-harness";

let root: string;
let directory: string;
const stores = new KeptStores();

function purchase(at: string, dataset: string, members: string[]): Purchase {
  return {
    at: new Date(at),
    product: "pcd",
    operation: "series_values",
    codes: members.map((member, index) => ({
      key: `k${at}${index}`,
      code: `${dataset}-${index}`,
      dataset,
      member,
    })),
  };
}

function fromCache(at: string, member: string, dataset: string): ServedAnswer {
  return {
    at: new Date(at),
    member,
    product: "pcd",
    operation: "series_values",
    code: `${dataset}-0`,
    dataset,
    source: "cache",
  };
}

// November 2026's allowance period runs from its release (the 3rd business day, 2026-11-04,
// 06:00 US Central = 12:00 UTC) to December's (2026-12-03): a purchase on 2 November is
// October's.
const PURCHASES = [
  purchase("2026-11-04T12:00:00Z", "PPI", ["ann@example.com", "ann@example.com", "bob@example.com"]),
  purchase("2026-11-20T09:00:00Z", "CPI", ["bob@example.com"]),
  purchase("2026-11-02T09:00:00Z", "PPI", ["ann@example.com"]),
];
const NOVEMBER = { from: new Date("2026-11-04T12:00:00Z"), until: new Date("2026-12-03T12:00:00Z") };

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-usage-"));
  directory = newPGliteDirectory(path.join(root, "store"));
  const store = await stores.open(directory);
  for (const bought of PURCHASES) await store.audit.recordPurchase(bought);
  await store.audit.recordServed([
    fromCache("2026-11-05T00:00:00Z", "bob@example.com", "PPI"),
    fromCache("2026-11-10T00:00:00Z", "bob@example.com", "PPI"),
    fromCache("2026-11-10T00:00:00Z", "cy@example.com", "CPI"),
  ]);
}, 60_000);

afterAll(async () => {
  await stores.closeAll();
  rmSync(root, { recursive: true, force: true });
});

const NOVEMBER_TABLE = [
  "Requests in allowance period 2026-11, from its release (business day 3) at 2026-11-04 12:00 UTC to the next at 2026-12-03 12:00 UTC. " +
    "purchased: data requests the service charged; from cache: answers served without a charge.",
  "",
  "member           product  dataset  purchased  from cache",
  "ann@example.com  pcd      PPI              2           0",
  "bob@example.com  pcd      CPI              1           0",
  "bob@example.com  pcd      PPI              1           2",
  "cy@example.com   pcd      CPI              0           1",
  "",
  "Totals per dataset",
  "member       product  dataset  purchased  from cache",
  "all members  pcd      CPI              1           1",
  "all members  pcd      PPI              3           2",
  "",
  "Overall: 4 purchased, 3 from cache.",
  "",
].join("\n");

test.each([
  { case: "--month 2026-11", argv: ["--month", "2026-11"], now: Date.UTC(2027, 0, 5) },
  { case: "no --month, before December's release", argv: [], now: Date.UTC(2026, 11, 3, 11, 59, 59) },
  { case: "--release-day 3 (the default)", argv: ["--month", "2026-11", "--release-day", "3"], now: 0 },
])(
  "$case: a table per member, product and dataset, with totals",
  async ({ argv, now }) => {
    const run = await runAdmin(usageCommand, [...argv, "--database", directory], { now, stores });
    expect(run).toEqual({ code: 0, stdout: NOVEMBER_TABLE, stderr: "" });
  },
  30_000,
);

test("--release-day 5: November's period opens on 2026-11-06, and counts what was bought since", async () => {
  const run = await runAdmin(
    usageCommand,
    ["--month", "2026-11", "--release-day", "5", "--json", "--database", directory],
    { stores },
  );
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout) as UsageReport;
  expect([report.from, report.until]).toEqual(["2026-11-06T12:00:00.000Z", "2026-12-07T12:00:00.000Z"]);
  expect(report.rows).toEqual([
    { member: "bob@example.com", product: "pcd", dataset: "CPI", purchased: 1, fromCache: 0 },
    { member: "bob@example.com", product: "pcd", dataset: "PPI", purchased: 0, fromCache: 1 },
    { member: "cy@example.com", product: "pcd", dataset: "CPI", purchased: 0, fromCache: 1 },
  ]);
}, 30_000);

test("without --release-day, the day the gateway keeps in the database", async () => {
  const store = await stores.open(directory);
  await store.releaseDay.replace(5);
  try {
    const run = await runAdmin(usageCommand, ["--month", "2026-11", "--json", "--database", directory], {
      stores,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as UsageReport;
    expect([report.releaseDay, report.from]).toEqual([5, "2026-11-06T12:00:00.000Z"]);
    const given = await runAdmin(
      usageCommand,
      ["--month", "2026-11", "--release-day", "3", "--json", "--database", directory],
      { stores },
    );
    expect((JSON.parse(given.stdout) as UsageReport).from).toBe(NOVEMBER.from.toISOString());
  } finally {
    // As before the test: no day kept.
    await (await stores.database(directory)).query("delete from settings where name = 'release_day'");
  }
}, 30_000);

test("--json: the period, the rows and totals; purchases total the codes bought in the period", async () => {
  const run = await runAdmin(usageCommand, ["--month", "2026-11", "--json", "--database", directory], {
    stores,
  });
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout) as UsageReport;
  expect(report).toMatchObject({
    month: "2026-11",
    releaseDay: 3,
    from: NOVEMBER.from.toISOString(),
    until: NOVEMBER.until.toISOString(),
  });
  expect(report.rows).toHaveLength(4);
  const bought = PURCHASES.filter((p) => p.at >= NOVEMBER.from && p.at < NOVEMBER.until).flatMap(
    (p) => p.codes,
  ).length;
  expect(report.totals.purchased).toBe(bought);
  expect(report.rows.reduce((sum, row) => sum + row.purchased, 0)).toBe(bought);
  expect(report.totals.fromCache).toBe(3);
  expect(report.totals.datasets).toEqual([
    { product: "pcd", dataset: "CPI", purchased: 1, fromCache: 1 },
    { product: "pcd", dataset: "PPI", purchased: 3, fromCache: 2 },
  ]);
}, 30_000);

test("a period without requests says so", async () => {
  const run = await runAdmin(usageCommand, ["--month", "2025-01", "--database", directory], { stores });
  expect(run).toEqual({
    code: 0,
    stdout:
      "No requests in allowance period 2025-01, from its release (business day 3) at 2025-01-03 12:00 UTC to the next at 2025-02-05 12:00 UTC.\n",
    stderr: "",
  });
}, 30_000);

test.each([
  {
    case: "a month 13",
    argv: ["--month", "2026-13", "--database", "DIR"],
    message: "--month takes a month as YYYY-MM",
  },
  { case: "a month without its zero", argv: ["--month", "2026-1", "--database", "DIR"], message: "--month" },
  { case: "--month without a value", argv: ["--database", "DIR", "--month"], message: "--month" },
  {
    case: "a release day past the 10th",
    argv: ["--release-day", "11", "--database", "DIR"],
    message: "--release-day expects the release's business day of the month, a whole number from 1 to 10",
  },
  { case: "a release day of 0", argv: ["--release-day", "0", "--database", "DIR"], message: "--release-day" },
  { case: "an unknown flag", argv: ["--jsn", "--database", "DIR"], message: "--jsn" },
  { case: "no --database", argv: ["--month", "2026-11"], message: "--database is required" },
  {
    case: "a positional argument",
    argv: ["2026-11", "--database", "DIR"],
    message: "usage takes no positional arguments",
  },
])("$case: exit code 2 and a message naming it", async ({ argv, message }) => {
  const run = await runAdmin(
    usageCommand,
    argv.map((arg) => (arg === "DIR" ? directory : arg)),
    { stores },
  );
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain("Usage: usage [--month YYYY-MM]");
});
