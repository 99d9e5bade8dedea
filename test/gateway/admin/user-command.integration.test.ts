// `user add|remove|list` on a PGlite directory, driven as the cli drives them.
import "../support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { userCommand } from "../../../src/gateway/admin/user-command";
import { newPGliteDirectory } from "../support/new-pglite-directory";
import { KeptStores, runAdmin } from "./command-harness";

const PASSWORD = "s3cret: correct horse";
let root: string;
let directory: string;
const stores = new KeptStores();

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-users-"));
  directory = newPGliteDirectory(path.join(root, "store"));
});

afterAll(async () => {
  await stores.closeAll();
  rmSync(root, { recursive: true, force: true });
});

const user =
  (...argv: string[]) =>
  (stdin?: string) =>
    runAdmin(userCommand, argv, stdin === undefined ? { stores } : { stdin, stores });

test("add reads the password from standard input, keeps only its hash and never writes it out", async () => {
  const run = await user(
    "add",
    " Ann@Example.com",
    "--budget",
    "40",
    "--database",
    directory,
    "--domain",
    "example.com",
  )(`${PASSWORD}\nnot part of the password\n`);
  expect(run).toEqual({
    code: 0,
    stdout:
      "Added ann@example.com (member, budget: 40 data requests per dataset a month, release to release).\n",
    stderr: "",
  });
  const rows = await (
    await stores.database(directory)
  ).query<{ email: string; password_hash: string }>("select email, password_hash from members");
  expect(rows.map((row) => row.email)).toEqual(["ann@example.com"]);
  expect(rows[0]?.password_hash).toMatch(/^scrypt\$/);
  expect(rows[0]?.password_hash).not.toContain(PASSWORD);
  const store = await stores.open(directory);
  expect(await store.members.verify("ann@example.com", PASSWORD)).not.toBeNull();
  expect(await store.members.verify("ann@example.com", `${PASSWORD}\nnot part of the password`)).toBeNull();
}, 60_000);

test("add of an admin without a budget, then list shows every member with role and budget", async () => {
  const added = await user(
    "add",
    "zed@example.com",
    "--admin",
    "--database",
    directory,
  )("another password\r\n");
  expect(added.stdout).toBe("Added zed@example.com (admin, budget: none of their own).\n");
  const listed = await user("list", "--database", directory)();
  expect(listed).toEqual({
    code: 0,
    stdout: [
      "email            role    budget  status",
      "ann@example.com  member  40",
      "zed@example.com  admin   none",
      "",
    ].join("\n"),
    stderr: "",
  });
}, 30_000);

test("add of an existing member replaces password, role and budget, and says so", async () => {
  const run = await user(
    "add",
    "zed@example.com",
    "--budget",
    "0",
    "--database",
    directory,
  )("third password\n");
  expect(run.stdout).toBe(
    "Updated zed@example.com (member, budget: 0 data requests per dataset a month, release to release).\n",
  );
}, 30_000);

test("remove takes the member out; removing again fails and says there is no such member", async () => {
  expect(await user("remove", "ZED@example.com", "--database", directory)()).toEqual({
    code: 0,
    stdout: "Removed zed@example.com.\n",
    stderr: "",
  });
  expect(await user("remove", "zed@example.com", "--database", directory)()).toEqual({
    code: 1,
    stdout: "",
    stderr: "No member zed@example.com: nothing removed.\n",
  });
  expect((await user("list", "--database", directory)()).stdout).not.toContain("zed@");
}, 30_000);

test("block refuses a member whatever their token and shows in list; unblock lifts it; an unknown member says so", async () => {
  expect(await user("block", "Ann@example.com", "--database", directory)()).toEqual({
    code: 0,
    stdout: "Blocked ann@example.com: the gateway refuses their requests, whatever their token.\n",
    stderr: "",
  });
  expect((await user("list", "--database", directory)()).stdout).toMatch(
    /^ann@example\.com +member +40 +blocked$/m,
  );
  const store = await stores.open(directory);
  expect((await store.members.find("ann@example.com"))?.blocked).toBe(true);
  expect(await user("unblock", "ann@example.com", "--database", directory)()).toEqual({
    code: 0,
    stdout: "Unblocked ann@example.com.\n",
    stderr: "",
  });
  expect((await user("list", "--database", directory)()).stdout).toMatch(/^ann@example\.com +member +40$/m);
  expect(await user("block", "nobody@example.com", "--database", directory)()).toEqual({
    code: 1,
    stdout: "",
    stderr: "No member nobody@example.com: nothing to block.\n",
  });
}, 30_000);

test.each([
  { case: "an empty first line", stdin: "\nsecond line\n" },
  { case: "no input at all", stdin: "" },
])(
  "add refuses $case as password, and adds nobody",
  async ({ stdin }) => {
    const run = await user("add", "new@example.com", "--database", directory)(stdin);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No password given/);
    expect((await user("list", "--database", directory)()).stdout).not.toContain("new@");
  },
  30_000,
);

test.each([
  {
    case: "an address outside --domain",
    argv: ["add", "eve@elsewhere.test", "--domain", "Example.com", "--database", "DIR"],
    message: "--domain example.com: eve@elsewhere.test is not an address in example.com.",
  },
  {
    case: "a negative --budget",
    argv: ["add", "a@example.com", "--budget", "-1", "--database", "DIR"],
    message: "--budget",
  },
  {
    case: "a fractional --budget",
    argv: ["add", "a@example.com", "--budget", "2.5", "--database", "DIR"],
    message: "--budget",
  },
  { case: "--budget without a value", argv: ["add", "a@example.com", "--budget"], message: "--budget" },
  { case: "an unknown flag", argv: ["list", "--budjet", "3", "--database", "DIR"], message: "--budjet" },
  { case: "no --database", argv: ["list"], message: "--database is required" },
  { case: "an empty --database", argv: ["list", "--database", ""], message: "--database is required" },
  {
    case: "--budget given to list",
    argv: ["list", "--budget", "3", "--database", "DIR"],
    message: "--budget is not an option of user list",
  },
  {
    case: "--admin given to remove",
    argv: ["remove", "a@example.com", "--admin", "--database", "DIR"],
    message: "--admin is not an option of user remove",
  },
  { case: "no EMAIL", argv: ["add", "--database", "DIR"], message: "user add takes one EMAIL (0 given)" },
  {
    case: "two EMAILs",
    argv: ["remove", "a@example.com", "b@example.com", "--database", "DIR"],
    message: "(2 given)",
  },
  {
    case: "an EMAIL that is not one",
    argv: ["add", "ann", "--database", "DIR"],
    message: '"ann" is not an email address',
  },
  {
    case: "a name like an API key's",
    argv: ["add", "key:nightly@example.com", "--database", "DIR"],
    message: '"key:nightly@example.com" is not an email address',
  },
  {
    case: "--budget given to block",
    argv: ["block", "a@example.com", "--budget", "3", "--database", "DIR"],
    message: "--budget is not an option of user block",
  },
  { case: "no action", argv: [], message: "user needs an action: add, remove, block, unblock or list." },
  {
    case: "an option where the action goes",
    argv: ["--database", "DIR"],
    message: "user needs an action: add, remove, block, unblock or list.",
  },
  { case: "an unknown action", argv: ["delete", "a@example.com"], message: 'Unknown user action "delete".' },
])("$case: exit code 2 and a message naming it", async ({ argv, message }) => {
  const run = await user(...argv.map((arg) => (arg === "DIR" ? directory : arg)))(`${PASSWORD}\n`);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain("Usage: user add EMAIL");
  expect(run.stderr).not.toContain(PASSWORD);
});

test("a database that cannot be reached: exit code 1, a message without the URL's password", async () => {
  const run = await user("list", "--database", "postgres://gateway:db-s3cret@127.0.0.1:1/pcd")();
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /^Could not open the database postgres:\/\/gateway:\*\*\*@127\.0\.0\.1:1\/pcd: /,
  );
  expect(run.stderr).not.toContain("db-s3cret");
});
