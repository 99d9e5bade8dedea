// API keys for scripts, end to end on a PGlite directory against the emulator as the service:
// `key add` prints a key once and keeps its hash, the key signs in as `api-key` and its requests
// are key:NAME's in the audit and the usage report (a spawned runner with PCD_API_KEY too),
// `key revoke` stops its tokens at once, and `key list` shows what happened.
import "./support/pglite-outside-sandbox";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { keyCommand } from "../../src/gateway/admin/key-command";
import { usageCommand } from "../../src/gateway/admin/usage-command";
import { hashApiKeySecret, newApiKeySecret } from "../../src/gateway/api-keys/api-key";
import type { RunningGateway } from "../../src/gateway/gateway-app";
import type { GatewayStore } from "../../src/gateway/store/gateway-store";
import { KeptStores, runAdmin } from "./admin/command-harness";
import { newPGliteDirectory } from "./support/new-pglite-directory";
import { spawnRunner } from "./support/spawned-runner";
import { runDirect } from "./support/direct-run";
import { catalogOf, startService, startTeamGateway, type ServiceUnderTest } from "./support/team";
import { allowancePeriodAt } from "../../src/gateway/members/allowance-period";
import { DEFAULT_RELEASE_BUSINESS_DAY } from "../../src/gateway/members/release-day";

let root: string;
let directory: string;
let service: ServiceUnderTest;
let codes: string[];
const secrets: Record<string, string> = {};
// The file's database, open from its first command to its end (the gateway uses it too).
const stores = new KeptStores();

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "pcd-gateway-keys-"));
  directory = newPGliteDirectory(path.join(root, "store"));
  service = await startService();
  codes = (await catalogOf(service, "energy_price")).map((record) => record.code);
});

afterAll(async () => {
  await stores.closeAll();
  await service.close();
  rmSync(root, { recursive: true, force: true });
});

const key = (...argv: string[]) =>
  runAdmin(keyCommand, [...argv, "--database", directory], { now: service.now(), stores });

async function withGateway(work: (gateway: RunningGateway, store: GatewayStore) => Promise<void>) {
  const store = await stores.open(directory);
  const gateway = await startTeamGateway(service, store);
  try {
    await work(gateway, store);
  } finally {
    await gateway.close();
  }
}

async function signIn(gateway: RunningGateway, password: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.url}/auth/access_token/v1`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "api-key", password }),
  });
  return { status: response.status, body: await response.json() };
}

async function get(gateway: RunningGateway, route: string, token: string) {
  const response = await fetch(`${gateway.url}/api${route}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

test("key add prints a new key once on standard output and keeps only its sha256", async () => {
  for (const [name, budget] of [
    ["nightly", "50"],
    ["runner", undefined],
  ] as const) {
    const run = await key("add", name, ...(budget === undefined ? [] : ["--budget", budget]));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^pcdk_[A-Za-z0-9_-]{43}\n$/);
    expect(run.stderr).toContain(`Added the key ${name}`);
    expect(run.stderr).toContain(`its requests show as key:${name}`);
    secrets[name] = run.stdout.trim();
  }
  expect(secrets.nightly).not.toBe(secrets.runner);
  const rows = await (
    await stores.database(directory)
  ).query<{ name: string; secret_hash: string; budget: number | null }>(
    "select name, secret_hash, budget from api_keys order by name",
  );
  expect(rows).toEqual([
    { name: "nightly", secret_hash: hashApiKeySecret(secrets.nightly ?? ""), budget: 50 },
    { name: "runner", secret_hash: hashApiKeySecret(secrets.runner ?? ""), budget: null },
  ]);
  const again = await key("add", "nightly");
  expect(again).toEqual({
    code: 1,
    stdout: "",
    stderr:
      "A working key named nightly exists: revoke it first (key revoke nightly), or choose another name.\n",
  });
}, 60_000);

test("a key signs in as api-key; its purchases are key:NAME's, within its budget; a revoked key stops at once", async () => {
  await withGateway(async (gateway, store) => {
    const wrong = await signIn(gateway, "pcdk_not-a-key");
    expect(wrong).toEqual({
      status: 401,
      body: { message: "Invalid credentials: unknown or revoked API key." },
    });

    const signedIn = await signIn(gateway, secrets.nightly ?? "");
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body as { access_token: string }).access_token;
    const bought = await get(gateway, `/energy_price/v1/export/series/${codes.slice(0, 2).join(",")}`, token);
    expect(bought.status).toBe(200);
    const limits = (await get(gateway, "/energy_price/v1/data_limits", token)).body as Record<
      string,
      { member_budget?: number }
    >;
    expect(Object.values(limits).some((dataset) => dataset.member_budget === 50)).toBe(true);

    const usage = await store.audit.usage(
      allowancePeriodAt(new Date(service.now()), DEFAULT_RELEASE_BUSINESS_DAY),
    );
    expect(
      usage.filter((row) => row.member === "key:nightly").reduce((sum, row) => sum + row.purchased, 0),
    ).toBe(2);

    expect(await store.keys.revoke("nightly", new Date(service.now()))).toBe(true);
    expect(await get(gateway, "/energy_price/v1/export/series", token)).toEqual({
      status: 401,
      body: { message: "Invalid access token: the API key nightly was revoked." },
    });
    expect((await signIn(gateway, secrets.nightly ?? "")).status).toBe(401);

    // The name given to a new key: the leaked key's tokens stay refused, the new key's work.
    const replacement = newApiKeySecret();
    await store.keys.add("nightly", hashApiKeySecret(replacement), {
      budget: 50,
      at: new Date(service.now() + 1_000),
    });
    expect((await get(gateway, "/energy_price/v1/export/series", token)).status).toBe(401);
    const renewed = await signIn(gateway, replacement);
    expect(renewed.status).toBe(200);
    const renewedToken = (renewed.body as { access_token: string }).access_token;
    expect((await get(gateway, "/energy_price/v1/export/series", renewedToken)).status).toBe(200);
    // Revoked again, as the tests after this one expect the key.
    expect(await store.keys.revoke("nightly", new Date(service.now() + 2_000))).toBe(true);
  });
}, 60_000);

test("wrong keys are limited, a working key never: scripts behind one address cannot be locked out", async () => {
  // The database keeps the counts of the tests before (wrong keys from this address): a new window.
  await service.setClock(new Date(service.now() + 2 * 60_000).toISOString());
  await withGateway(async (gateway) => {
    const statuses = [];
    for (let attempt = 0; attempt <= 10; attempt += 1) {
      statuses.push((await signIn(gateway, `pcdk_wrong-${attempt}`)).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    expect((await signIn(gateway, secrets.runner ?? "")).status).toBe(200);
  });
}, 60_000);

test("a runner with PCD_API_KEY refreshes its formulas through the gateway, and the usage report shows key:NAME", async () => {
  const formulas = codes.slice(2, 5).map((code) => `=PCD.VALUE("${code}")`);
  const direct = await runDirect(service, formulas);
  await withGateway(async (gateway) => {
    const report = await spawnRunner(formulas, {
      baseUrl: `${gateway.url}/api`,
      authUrl: `${gateway.url}/auth`,
      apiKey: secrets.runner ?? "",
      now: new Date(service.now()).toISOString(),
    });
    expect(report.signInError).toBeUndefined();
    expect(report.passes.at(-1)?.results).toEqual(direct.passes.at(-1)?.results);
  });
  const month = new Date(service.now()).toISOString().slice(0, 7);
  const run = await runAdmin(usageCommand, ["--month", month, "--json", "--database", directory], {
    stores,
  });
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain(secrets.runner ?? "");
  const report = JSON.parse(run.stdout) as { rows: Array<{ member: string; purchased: number }> };
  const purchasedBy = (member: string) =>
    report.rows.filter((row) => row.member === member).reduce((sum, row) => sum + row.purchased, 0);
  expect(purchasedBy("key:runner")).toBe(3);
  expect(purchasedBy("key:nightly")).toBe(2);
}, 120_000);

test("key list shows each key's budget, creation and revocation; revoke of a revoked key says so", async () => {
  const created = new Date(service.now()).toISOString().slice(0, 16).replace("T", " ");
  const listed = await key("list");
  expect(listed.code).toBe(0);
  const lines = listed.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^name\s+budget\s+created \(UTC\)\s+revoked \(UTC\)$/);
  expect(lines[1]).toMatch(
    new RegExp(`^nightly\\s+50\\s+${created.slice(0, 13)}:\\d\\d\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`),
  );
  expect(lines[2]).toMatch(new RegExp(`^runner\\s+none\\s+${created.slice(0, 13)}:\\d\\d$`));
  expect(listed.stdout).not.toContain("pcdk_");
  expect(await key("revoke", "nightly")).toEqual({
    code: 1,
    stdout: "",
    stderr: "No working key nightly: nothing revoked.\n",
  });
  expect(await key("revoke", "runner")).toEqual({
    code: 0,
    stdout: "Revoked runner: its tokens stop working at once.\n",
    stderr: "",
  });
}, 60_000);

test.each([
  { case: "no action", argv: [], message: "key needs an action: add, revoke or list." },
  { case: "an unknown action", argv: ["delete", "x"], message: 'Unknown key action "delete".' },
  { case: "a name with capitals", argv: ["add", "Nightly"], message: '"Nightly" is not a key name' },
  { case: "a name with an @", argv: ["add", "ann@example.com"], message: "is not a key name" },
  { case: "no name", argv: ["add"], message: "key add takes one NAME (0 given)" },
  { case: "a negative budget", argv: ["add", "x", "--budget", "-1"], message: "--budget" },
  {
    case: "--budget given to revoke",
    argv: ["revoke", "x", "--budget", "3"],
    message: "--budget is not an option",
  },
])("key with $case: exit code 2 and a message naming it", async ({ argv, message }) => {
  const run = await runAdmin(keyCommand, [...argv, "--database", directory], { stores });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(message);
  expect(run.stderr).toContain("Usage: key add NAME");
});
